// RankGroup without MPI: this process is the whole run.
#include <algorithm>

#include "demos/robots/rank_group.h"

namespace swarm {

RankGroup::RankGroup(int*, char***) : host_("this machine") {}
RankGroup::~RankGroup() = default;

Status RankGroup::Agree(const Status& mine) { return mine; }
bool RankGroup::AnyOf(bool mine) { return mine; }
uint64_t RankGroup::BroadcastWord(uint64_t value) { return value; }

std::vector<uint64_t> RankGroup::GatherWords(std::span<const uint64_t> mine) {
  return {mine.begin(), mine.end()};
}

std::vector<std::string> RankGroup::GatherTexts(const std::string& mine) { return {mine}; }

void RankGroup::GatherFloats(std::span<const float>, std::span<const uint64_t>, std::span<float>) {}

}  // namespace swarm

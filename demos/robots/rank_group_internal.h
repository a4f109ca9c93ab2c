// RankGroup's parts shared by its MPI and single-process builds.
#pragma once

#include <span>
#include <string>

#include "swarm/core/status.h"

namespace swarm::rank_group_internal {

// "code:message", the form in which statuses travel between ranks.
std::string EncodeStatus(const Status& status);
// RankGroup::Agree's result from every rank's EncodeStatus, in rank order.
Status AgreedStatus(std::span<const std::string> encoded);

}  // namespace swarm::rank_group_internal

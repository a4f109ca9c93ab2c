// Tests for kernels/quaternion.*: every kernel against its scalar reference
// (swarm/kernels/geometry/quaternion_reference.h) on every compiled SIMD target, for every size in
// kSizes and both padding fills, bitwise across targets, plus in-place aliasing. Comparisons with
// GLM in double precision, the quaternion identities and degenerate inputs live in
// quaternion_properties_test.cc.
#include "swarm/kernels/geometry/quaternion.h"

#include <catch2/catch.hpp>
#include <cstddef>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "swarm/kernels/geometry/quaternion_reference.h"
#include "tests/kernels/geometry/quaternion_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::Close;
using test::ForEachTarget;
using test::FromQuats;
using test::PaddedMat4;
using test::PaddedVec4;
using test::SameBits;
using test::TargetUnderTest;
using test::ToQuats;

// The inputs every kernel draws from; each size gets its own seed.
struct Inputs {
  Inputs(size_t count, float padding)
      : a(FromQuats(test::RandomUnitQuats(count, Seed(count, 1)), padding)),
        b(FromQuats(test::PartnerQuats(ToQuats(a), Seed(count, 2)), padding)),
        raw(RawQuats(count, padding)),
        vectors(test::RandomVectors(count, Seed(count, 4), padding)),
        matrices(test::RandomRotationMatrices(count, Seed(count, 5), padding)) {}

  static uint32_t Seed(size_t count, uint32_t which) {
    return static_cast<uint32_t>(count) * 16u + which;
  }
  // Unnormalized quaternions of magnitude 1e-3 .. 1e3, every 37th one zero.
  static PaddedVec4 RawQuats(size_t count, float padding) {
    std::mt19937 rng(Seed(count, 3));
    std::uniform_real_distribution<float> exponent(-3.0f, 3.0f);
    std::vector<glm::quat> q = test::RandomUnitQuats(count, Seed(count, 6));
    for (size_t i = 0; i < count; ++i) {
      q[i] =
          i % 37 == 5 ? glm::quat(0.0f, 0.0f, 0.0f, 0.0f) : q[i] * std::pow(10.0f, exponent(rng));
    }
    return FromQuats(q, padding);
  }
  bool BitwiseEqual(const Inputs& other) const {
    return a.BitwiseEqual(other.a) && b.BitwiseEqual(other.b) && raw.BitwiseEqual(other.raw) &&
           vectors.BitwiseEqual(other.vectors) && matrices.BitwiseEqual(other.matrices);
  }

  PaddedVec4 a, b, raw, vectors;
  PaddedMat4 matrices;
};

template <class Output>
constexpr size_t kOutputLanes = std::is_same_v<Output, PaddedMat4> ? 16 : 4;

// Empty if every element of `got` is bitwise `want` (and so within the tolerance of
// particle_fixture.h, |got - want| <= 1e-6 + 1e-6 |want|, checked separately so that a
// reordered operation reads as a value difference); else the first mismatch per lane.
template <class Output>
std::string CompareOutputs(const Output& got, const Output& want) {
  std::ostringstream report;
  report.precision(9);
  for (size_t lane = 0; lane < kOutputLanes<Output>; ++lane) {
    size_t not_close = 0, not_bitwise = 0;
    for (size_t i = 0; i < want.count(); ++i) {
      const float g = got.Lane(lane)[i], w = want.Lane(lane)[i];
      if (!Close(g, w) && not_close++ == 0) {
        report << "lane " << lane << " [" << i << "]: got " << g << ", want " << w << "\n";
      }
      if (!SameBits(g, w) && not_bitwise++ == 0) {
        report << "lane " << lane << " [" << i << "]: bits differ: " << g << " vs " << w << "\n";
      }
    }
    if (not_close + not_bitwise > 0) {
      report << "lane " << lane << ": " << not_close << " beyond tolerance, " << not_bitwise
             << " not bitwise\n";
    }
  }
  return report.str();
}

// For every size and both paddings: kernel(inputs, output) on every target must equal
// reference(inputs) (an Output filled by the scalar reference), keep the output's padding and
// the inputs, and give the same bits on every target.
template <class Output, class Kernel, class Reference>
void CheckAgainstReference(const Kernel& kernel, const Reference& reference) {
  for (const size_t count : test::kSizes) {
    for (const bool sentinel : {false, true}) {
      INFO("count " << count << (sentinel ? ", sentinel padding" : ", zero padding"));
      const float padding = sentinel ? test::kSentinelFloat : 0.0f;
      const Inputs inputs(count, padding);
      const Output want = reference(inputs);
      std::optional<Output> first;
      std::string first_target;
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        Inputs in = inputs;
        Output got(count, padding);
        kernel(in, got);
        CHECK(CompareOutputs(got, want) == "");
        CHECK(got.PaddingMismatch(padding) == std::nullopt);
        CHECK(in.BitwiseEqual(inputs));
        if (!first) {
          first.emplace(got);
          first_target = target.name;
        } else {
          INFO("bitwise against target " << first_target);
          CHECK(got.BitwiseEqual(*first));
        }
      });
      REQUIRE(first.has_value());
    }
  }
}

PaddedVec4 VectorsFrom(const std::vector<glm::vec4>& vectors) {
  PaddedVec4 out(vectors.size());
  for (size_t i = 0; i < vectors.size(); ++i) out.Set(i, vectors[i]);
  return out;
}

PaddedMat4 MatricesFrom(const std::vector<glm::mat4>& matrices) {
  PaddedMat4 out(matrices.size());
  for (size_t i = 0; i < matrices.size(); ++i) out.Set(i, matrices[i]);
  return out;
}

std::vector<glm::mat4> ToMatrices(const PaddedMat4& m) {
  std::vector<glm::mat4> out(m.count());
  for (size_t i = 0; i < m.count(); ++i) out[i] = m.Get(i);
  return out;
}

constexpr float kParameters[] = {0.0f, 0.25f, 0.5f, 0.8f, 1.0f, -0.5f, 1.5f};

TEST_CASE("RotateVectors matches glm's quat * vec3 on every target") {
  const glm::quat q = glm::normalize(glm::quat(0.4f, 0.3f, -0.5f, 0.7f));
  CheckAgainstReference<PaddedVec4>(
      [&](const Inputs& in, PaddedVec4& out) { RotateVectors(q, in.vectors.view(), out.view()); },
      [&](const Inputs& in) {
        std::vector<glm::vec4> out(in.vectors.count());
        reference::RotateVectors(q, in.vectors.ToAos(), out);
        return VectorsFrom(out);
      });
}

TEST_CASE("RotateVectorsPerElement matches the reference on every target") {
  CheckAgainstReference<PaddedVec4>(
      [](const Inputs& in, PaddedVec4& out) {
        RotateVectorsPerElement(in.a.view(), in.vectors.view(), out.view());
      },
      [](const Inputs& in) {
        std::vector<glm::vec4> out(in.vectors.count());
        reference::RotateVectorsPerElement(ToQuats(in.a), in.vectors.ToAos(), out);
        return VectorsFrom(out);
      });
}

TEST_CASE("MultiplyQuaternions matches the reference on every target") {
  CheckAgainstReference<PaddedVec4>(
      [](const Inputs& in, PaddedVec4& out) {
        MultiplyQuaternions(in.a.view(), in.b.view(), out.view());
      },
      [](const Inputs& in) {
        std::vector<glm::quat> out(in.a.count());
        reference::MultiplyQuaternions(ToQuats(in.a), ToQuats(in.b), out);
        return FromQuats(out);
      });
}

TEST_CASE("ConjugateQuaternions matches glm::conjugate on every target") {
  CheckAgainstReference<PaddedVec4>(
      [](const Inputs& in, PaddedVec4& out) { ConjugateQuaternions(in.a.view(), out.view()); },
      [](const Inputs& in) {
        std::vector<glm::quat> out(in.a.count());
        reference::ConjugateQuaternions(ToQuats(in.a), out);
        return FromQuats(out);
      });
}

TEST_CASE("NormalizeQuaternions matches the reference on every target, zeros included") {
  CheckAgainstReference<PaddedVec4>(
      [](const Inputs& in, PaddedVec4& out) { NormalizeQuaternions(in.raw.view(), out.view()); },
      [](const Inputs& in) {
        std::vector<glm::quat> out(in.raw.count());
        reference::NormalizeQuaternions(ToQuats(in.raw), out);
        return FromQuats(out);
      });
}

TEST_CASE("QuaternionsToMatrices matches glm::mat4_cast on every target") {
  CheckAgainstReference<PaddedMat4>(
      [](const Inputs& in, PaddedMat4& out) { QuaternionsToMatrices(in.a.view(), out.view()); },
      [](const Inputs& in) {
        std::vector<glm::mat4> out(in.a.count());
        reference::QuaternionsToMatrices(ToQuats(in.a), out);
        return MatricesFrom(out);
      });
}

TEST_CASE("MatricesToQuaternions matches glm::quat_cast with w >= 0 on every target") {
  CheckAgainstReference<PaddedVec4>(
      [](const Inputs& in, PaddedVec4& out) {
        MatricesToQuaternions(in.matrices.view(), out.view());
      },
      [](const Inputs& in) {
        std::vector<glm::quat> out(in.matrices.count());
        reference::MatricesToQuaternions(ToMatrices(in.matrices), out);
        return FromQuats(out);
      });
}

TEST_CASE("NlerpQuaternions matches the reference on every target") {
  for (const float t : kParameters) {
    INFO("t " << t);
    CheckAgainstReference<PaddedVec4>(
        [&](const Inputs& in, PaddedVec4& out) {
          NlerpQuaternions(in.a.view(), in.b.view(), t, out.view());
        },
        [&](const Inputs& in) {
          std::vector<glm::quat> out(in.a.count());
          reference::NlerpQuaternions(ToQuats(in.a), ToQuats(in.b), t, out);
          return FromQuats(out);
        });
  }
}

TEST_CASE("SlerpQuaternions matches the reference on every target") {
  for (const float t : kParameters) {
    INFO("t " << t);
    CheckAgainstReference<PaddedVec4>(
        [&](const Inputs& in, PaddedVec4& out) {
          SlerpQuaternions(in.a.view(), in.b.view(), t, out.view());
        },
        [&](const Inputs& in) {
          std::vector<glm::quat> out(in.a.count());
          reference::SlerpQuaternions(ToQuats(in.a), ToQuats(in.b), t, out);
          return FromQuats(out);
        });
  }
}

// Output views equal to an input view (same pointer and stride) give the out-of-place bits.
TEST_CASE("Quaternion kernels work in place where documented") {
  constexpr size_t kCount = 1017;
  const Inputs inputs(kCount, 0.0f);
  const glm::quat q = glm::normalize(glm::quat(0.4f, 0.3f, -0.5f, 0.7f));
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    const auto check = [&](const char* name, auto out_of_place, auto in_place) {
      INFO(name);
      PaddedVec4 separate(kCount);
      out_of_place(separate);
      const PaddedVec4 aliased = in_place();
      CHECK(aliased.BitwiseEqual(separate));
    };
    check(
        "RotateVectors in == out",
        [&](PaddedVec4& out) { RotateVectors(q, inputs.vectors.view(), out.view()); },
        [&] {
          PaddedVec4 v = inputs.vectors;
          RotateVectors(q, v.view(), v.view());
          return v;
        });
    check(
        "RotateVectorsPerElement in == out",
        [&](PaddedVec4& out) {
          RotateVectorsPerElement(inputs.a.view(), inputs.vectors.view(), out.view());
        },
        [&] {
          PaddedVec4 v = inputs.vectors;
          RotateVectorsPerElement(inputs.a.view(), v.view(), v.view());
          return v;
        });
    const auto binary = [&](const char* name, auto kernel) {
      check(
          name, [&](PaddedVec4& out) { kernel(inputs.a.view(), inputs.b.view(), out.view()); },
          [&] {
            PaddedVec4 a = inputs.a;
            kernel(a.view(), inputs.b.view(), a.view());
            return a;
          });
      check(
          name, [&](PaddedVec4& out) { kernel(inputs.a.view(), inputs.b.view(), out.view()); },
          [&] {
            PaddedVec4 b = inputs.b;
            kernel(inputs.a.view(), b.view(), b.view());
            return b;
          });
    };
    binary("MultiplyQuaternions out == a, out == b",
           [](ConstVec4View a, ConstVec4View b, Vec4View out) { MultiplyQuaternions(a, b, out); });
    binary(
        "NlerpQuaternions out == a, out == b",
        [](ConstVec4View a, ConstVec4View b, Vec4View out) { NlerpQuaternions(a, b, 0.3f, out); });
    binary(
        "SlerpQuaternions out == a, out == b",
        [](ConstVec4View a, ConstVec4View b, Vec4View out) { SlerpQuaternions(a, b, 0.3f, out); });
    check(
        "ConjugateQuaternions in == out",
        [&](PaddedVec4& out) { ConjugateQuaternions(inputs.a.view(), out.view()); },
        [&] {
          PaddedVec4 a = inputs.a;
          ConjugateQuaternions(a.view(), a.view());
          return a;
        });
    check(
        "NormalizeQuaternions in == out",
        [&](PaddedVec4& out) { NormalizeQuaternions(inputs.raw.view(), out.view()); },
        [&] {
          PaddedVec4 raw = inputs.raw;
          NormalizeQuaternions(raw.view(), raw.view());
          return raw;
        });
  });
}

}  // namespace
}  // namespace swarm

// The calibration fit: recovers a known parameter from a synthetic cycle model, refuses test
// points, and solves least squares over several points.
#include "validate/calibration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "arch/error.h"

namespace warpsim::validate {
namespace {

ReferencePoint point(const std::string& name, const std::string& role, double cycles) {
  ReferencePoint p;
  p.name = name;
  p.role = role;
  p.measured["gpc__cycles_elapsed.max"] = cycles;
  return p;
}

// Value of `path` in a list of "path=value" assignments, else `fallback`.
long long value_of(const std::vector<std::string>& sets, const std::string& path, long long fallback) {
  for (const auto& s : sets) {
    if (s.rfind(path + "=", 0) == 0) return std::stoll(s.substr(path.size() + 1));
  }
  return fallback;
}

TEST(ValidateCalibration, RecoversTheLatencyOfALinearModel) {
  // Simulated cycles = 1000 + 4096 × latency; the GPU measured latency 5 (21,480 cycles).
  Reference r;
  r.points = {point("chain", "calibration", 1000 + 4096 * 5)};
  const CalibrationTarget target{.parameter = "fu.lat", .points = {"chain"}, .tied = {}, .why = ""};
  int calls = 0;
  const auto fitted = fit_parameters(
      r, {target}, [](const std::string&) { return 4LL; },
      [&](const ReferencePoint&, const std::vector<std::string>& sets) {
        ++calls;
        return 1000.0 + 4096.0 * static_cast<double>(value_of(sets, "fu.lat", 4));
      });
  ASSERT_EQ(fitted.size(), 1u);
  EXPECT_EQ(fitted[0].before, 4);
  EXPECT_EQ(fitted[0].after, 5);
  EXPECT_NEAR(fitted[0].error_after_pct, 0.0, 1e-9);
  EXPECT_GT(fitted[0].error_before_pct, 15.0);
  EXPECT_GT(calls, 2);
}

TEST(ValidateCalibration, TiedParametersMoveByTheSameStep) {
  // Two points: half the hops see `near`, half see `far` = near + 150; the GPU's near is 300.
  Reference r;
  r.points = {point("a", "calibration", 1000 * (300 + 450) / 2.0),
              point("b", "calibration", 4000 * (300 + 450) / 2.0)};
  const CalibrationTarget target{.parameter = "near", .points = {"a", "b"}, .tied = {"far"}, .why = ""};
  const auto fitted = fit_parameters(
      r, {target}, [](const std::string& p) { return p == "near" ? 250LL : 400LL; },
      [](const ReferencePoint& p, const std::vector<std::string>& sets) {
        const double hops = p.name == "a" ? 1000 : 4000;
        return hops * static_cast<double>(value_of(sets, "near", 250) + value_of(sets, "far", 400)) / 2;
      });
  ASSERT_EQ(fitted.size(), 1u);
  EXPECT_EQ(fitted[0].after, 300);
  EXPECT_EQ(fitted[0].tied_before, std::vector<long long>{400});
}

TEST(ValidateCalibration, OnlyCalibrationPointsMaySetParameters) {
  Reference r;
  r.points = {point("t", "test", 100)};
  const CalibrationTarget target{.parameter = "x", .points = {"t"}, .tied = {}, .why = ""};
  const auto none = [](const ReferencePoint&, const std::vector<std::string>&) { return 1.0; };
  EXPECT_THROW(fit_parameters(r, {target}, [](const std::string&) { return 1LL; }, none), InputError);
  const CalibrationTarget missing{.parameter = "x", .points = {"absent"}, .tied = {}, .why = ""};
  EXPECT_THROW(fit_parameters(r, {missing}, [](const std::string&) { return 1LL; }, none),
               InputError);
}

TEST(ValidateCalibration, LeastSquaresStepWeighsEveryPoint) {
  // Residuals 0.2 and 0.4 with sensitivities 0.1 and 0.1 per unit: the best step is 3.
  EXPECT_EQ(least_squares_step({0.2, 0.4}, {0.1, 0.1}), 3);
  EXPECT_EQ(least_squares_step({0.0}, {0.0}), 0);
  EXPECT_EQ(least_squares_step({}, {}), 0);
}

TEST(ValidateCalibration, NvidiaTargetsUseTheLatencyLadderAndChains) {
  const auto& targets = nvidia_calibration_targets();
  ASSERT_GE(targets.size(), 4u);
  for (const auto& t : targets) {
    EXPECT_FALSE(t.points.empty()) << t.parameter;
    EXPECT_FALSE(t.why.empty()) << t.parameter;
  }
}

}  // namespace
}  // namespace warpsim::validate

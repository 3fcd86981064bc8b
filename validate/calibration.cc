#include "validate/calibration.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>

#include "arch/error.h"

namespace warpsim::validate {
namespace {

constexpr const char* kCycles = "gpc__cycles_elapsed.max";

const ReferencePoint& calibration_point(const Reference& reference, const std::string& name) {
  for (const ReferencePoint& p : reference.points) {
    if (p.name != name) continue;
    if (p.role != "calibration") {
      throw InputError("calibration: point '" + name + "' is a " + p.role +
                       " point; only calibration points may set parameters");
    }
    if (p.measured.find(kCycles) == p.measured.end()) {
      throw InputError("calibration: point '" + name + "' has no measured " + kCycles);
    }
    return p;
  }
  throw InputError("calibration: point '" + name + "' is not in the reference");
}

std::string assign(const std::string& path, long long value) {
  return path + "=" + std::to_string(value);
}

// The sets that give `target` (and its tied parameters) the value `value`.
std::vector<std::string> sets_for(const FittedParameter& f, long long value) {
  std::vector<std::string> sets{assign(f.target.parameter, value)};
  for (std::size_t t = 0; t < f.target.tied.size(); ++t) {
    sets.push_back(assign(f.target.tied[t], f.tied_before[t] + (value - f.before)));
  }
  return sets;
}

double mean_abs_pct(const std::vector<double>& r) {
  double sum = 0;
  for (double v : r) sum += std::abs(v);
  return r.empty() ? 0.0 : 100.0 * sum / static_cast<double>(r.size());
}

}  // namespace

const std::vector<CalibrationTarget>& nvidia_calibration_targets() {
  static const std::vector<CalibrationTarget> targets = {
      {.parameter = "launch.elapsed_overhead_cycles",
       .points = {"copy/n=1048576", "saxpy/n=1048576"},
       .tied = {},
       .why = "the shortest streaming kernels: elapsed time outside the CTAs' own work"},
      {.parameter = "launch.cta_launch_cycles",
       .points = {"copy/n=16777216", "saxpy/n=16777216"},
       .tied = {},
       .why = "HBM-bound streaming over 62 waves of CTAs: the time a CTA slot stays empty between "
              "a CTA's exit and its successor's first issue"},
      {.parameter = "functional_units.fp32.latency_cycles",
       .points = {"ffma_dependent/ctas=1,threads=32"},
       .tied = {},
       .why = "one warp's chain of dependent FFMAs"},
      {.parameter = "functional_units.sfu.latency_cycles",
       .points = {"sfu/ctas=1,threads=32"},
       .tied = {},
       .why = "one warp's chain of dependent MUFU operations"},
      {.parameter = "l1.hit_latency_cycles",
       .points = {"pointer_chase/footprint=16384"},
       .tied = {},
       .why = "pointer chase over 16 KB: every hop after the first pass hits L1"},
      {.parameter = "l2.near_hit_latency_cycles",
       .points = {"pointer_chase/footprint=1048576", "pointer_chase/footprint=8388608",
                  "pointer_chase/footprint=20971520"},
       .tied = {"l2.far_hit_latency_cycles"},
       .why = "pointer chases over 1-20 MB: L1 misses that hit L2, near and far slices alike"},
      {.parameter = "hbm.miss_latency_cycles",
       .points = {"pointer_chase/footprint=134217728", "pointer_chase/footprint=1073741824"},
       .tied = {},
       .why = "pointer chases over 128 MB and 1 GB: hops that miss L2 and read HBM"},
  };
  return targets;
}

long long least_squares_step(const std::vector<double>& r, const std::vector<double>& j) {
  const auto n = static_cast<Eigen::Index>(r.size());
  Eigen::MatrixXd jacobian(n, 1);
  Eigen::VectorXd residual(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    jacobian(i, 0) = j[static_cast<std::size_t>(i)];
    residual(i) = r[static_cast<std::size_t>(i)];
  }
  if (n == 0 || jacobian.norm() == 0.0) return 0;
  const Eigen::VectorXd step = jacobian.colPivHouseholderQr().solve(residual);
  return std::llround(step(0));
}

std::vector<FittedParameter> fit_parameters(
    const Reference& reference, const std::vector<CalibrationTarget>& targets,
    const std::function<long long(const std::string&)>& current, const CycleSimulator& simulate,
    int max_iterations) {
  std::vector<FittedParameter> out;
  std::vector<std::vector<const ReferencePoint*>> points(targets.size());
  for (std::size_t k = 0; k < targets.size(); ++k) {
    for (const std::string& name : targets[k].points) {
      points[k].push_back(&calibration_point(reference, name));
    }
    FittedParameter f;
    f.target = targets[k];
    f.before = current(targets[k].parameter);
    f.after = f.before;
    for (const std::string& t : targets[k].tied) f.tied_before.push_back(current(t));
    out.push_back(std::move(f));
  }
  // The assignments of every target but `skip`, at their latest values.
  const auto others = [&](std::size_t skip) {
    std::vector<std::string> sets;
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (k == skip) continue;
      const auto s = sets_for(out[k], out[k].after);
      sets.insert(sets.end(), s.begin(), s.end());
    }
    return sets;
  };
  // Relative residuals (measured - simulated) / measured of target k's points at `value`.
  const auto residuals = [&](std::size_t k, long long value) {
    std::vector<std::string> sets = others(k);
    const auto own = sets_for(out[k], value);
    sets.insert(sets.end(), own.begin(), own.end());
    std::vector<double> r;
    for (const ReferencePoint* p : points[k]) {
      const double measured = p->measured.at(kCycles);
      r.push_back((measured - simulate(*p, sets)) / measured);
    }
    return r;
  };
  for (std::size_t k = 0; k < out.size(); ++k) out[k].error_before_pct = mean_abs_pct(residuals(k, out[k].before));
  // Gauss-Seidel over the targets (a target's points may depend weakly on the others, e.g. the
  // SFU chain's loop on the FP32 latency), Gauss-Newton within each, until nothing moves.
  for (int pass = 0; pass < max_iterations; ++pass) {
    bool moved = false;
    for (std::size_t k = 0; k < out.size(); ++k) {
      FittedParameter& f = out[k];
      long long value = f.after;
      std::vector<double> r = residuals(k, value);
      for (int it = 0; it < max_iterations; ++it) {
        // Finite difference over a step of about a tenth of the value (at least 1).
        const long long delta = std::max<long long>(1, value / 10);
        const std::vector<double> r_plus = residuals(k, value + delta);
        std::vector<double> j(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) {
          j[i] = (r[i] - r_plus[i]) / static_cast<double>(delta);  // d(simulated/measured)/dp
        }
        const long long step = least_squares_step(r, j);
        ++f.iterations;
        if (step == 0 || value + step < 1) break;
        value += step;
        moved = true;
        r = residuals(k, value);
      }
      f.after = value;
      f.error_after_pct = mean_abs_pct(r);
    }
    if (!moved) break;
  }
  return out;
}

}  // namespace warpsim::validate

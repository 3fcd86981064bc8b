// Calibration: fitting architecture parameters to the `calibration` points of a reference.
//
// Each target names one integer parameter of the description (a `--set` path such as
// `functional_units.fp32.latency_cycles`), the calibration points whose measured
// gpc__cycles_elapsed.max it explains, and optional parameters tied to it (moved by the same
// amount, e.g. the far L2 latency with the near one, keeping their measured difference). The fit is
// Gauss-Newton on relative errors: residual r_i = (measured_i - simulated_i) / measured_i, the
// Jacobian from a finite difference of the simulator itself (each parameter's step applied to its
// own points only: the targets are chosen so that their points do not depend on one another's
// parameters, as the latency ladder's levels are separated by footprint), and the step solved by
// Eigen's least squares, then rounded to whole cycles. Iterations stop when the rounded step is 0;
// the targets are swept in turn (Gauss-Seidel, each simulated with the others' latest values) until
// a sweep moves nothing, so the printed values are a fixed point of the fit.
//
// Only calibration points are ever used; test points never enter a fit. Nothing here is per
// kernel: a fitted value is one global number of the architecture, and the preset records it with
// a `# source:` naming the reference and the points.
//
// Left out: parameters that are not integers, fits over bandwidth curves (queue depths, DRAM
// timings), and confidence intervals.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "validate/reference.h"

namespace warpsim::validate {

/// One fitted parameter and the points that determine it.
struct CalibrationTarget {
  std::string parameter;            ///< `--set` path of an integer field
  std::vector<std::string> points;  ///< calibration point names (exact)
  std::vector<std::string> tied;    ///< parameters moved by the same step
  std::string why;                  ///< what the points measure, for the report
};

/// The targets fitted for NVIDIA presets from the reference's microbenchmarks.
const std::vector<CalibrationTarget>& nvidia_calibration_targets();

/// Simulates `point` with the parameter assignments `sets` ("path=value") applied to the base
/// description and returns the simulated gpc__cycles_elapsed.max.
using CycleSimulator =
    std::function<double(const ReferencePoint& point, const std::vector<std::string>& sets)>;

/// The result of fitting one target.
struct FittedParameter {
  CalibrationTarget target;
  long long before = 0;                 ///< the description's value
  long long after = 0;                  ///< the fitted value
  std::vector<long long> tied_before;   ///< the tied parameters' values, in target.tied order
  double error_before_pct = 0;          ///< mean |relative error| of its points, before
  double error_after_pct = 0;           ///< and after
  int iterations = 0;
};

/// Fits every target. `current(path)` returns a parameter's value in the base description.
/// Throws InputError when a target's point is missing from `reference` or is not a calibration
/// point, or lacks a measured gpc__cycles_elapsed.max.
std::vector<FittedParameter> fit_parameters(const Reference& reference,
                                            const std::vector<CalibrationTarget>& targets,
                                            const std::function<long long(const std::string&)>& current,
                                            const CycleSimulator& simulate, int max_iterations = 4);

/// The least-squares step for residuals `r` (relative) and Jacobian column `j` (relative change
/// per unit of the parameter), rounded to a whole unit. Exposed for tests.
long long least_squares_step(const std::vector<double>& r, const std::vector<double>& j);

}  // namespace warpsim::validate

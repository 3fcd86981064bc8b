// Parametric workload models: kernels generated on the fly from a real SASS listing of their CUDA
// twin (workloads/cuda/), so `warpsim run --workload saxpy --param n=16777216` simulates the same
// instruction stream the H200 ran. A model names its parameters with defaults; it builds a
// KernelSource that streams CTAs on demand (bounded memory for any size).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/kernel_source.h"

namespace warpsim::workloads {

/// One parameter of a model.
struct ParamSpec {
  std::string name;
  int64_t default_value = 0;
  std::string description;
  int64_t min_value = 1;  ///< Smallest accepted value.
};

/// Parameter values, validated against a model's specs.
class Params {
 public:
  /// The value of `name` (a parameter the model declared).
  int64_t get(std::string_view name) const;
  /// "k=v;k=v" in declaration order, for reports.
  std::string to_string() const;
  /// Parses "k=v" strings over `specs` (defaults for the rest). Throws InputError naming the
  /// argument for an unknown name, a malformed or out-of-range value.
  static Params parse(const std::vector<ParamSpec>& specs, const std::vector<std::string>& args,
                      const std::string& model);

 private:
  std::vector<std::pair<std::string, int64_t>> values_;
};

/// A workload model.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string_view name() const = 0;
  /// Report category: "streaming", "latency", "compute", "divergence", …
  virtual std::string_view category() const = 0;
  virtual std::string_view description() const = 0;
  virtual std::vector<ParamSpec> params() const = 0;
  /// The kernels of one run with `params`.
  virtual std::unique_ptr<traces::KernelSource> make_source(const Params& params) const = 0;
};

/// Every built-in model, in a fixed order.
const std::vector<std::unique_ptr<Workload>>& all_workloads();

/// The model called `name`; throws InputError listing the known names when none is.
const Workload& find_workload(std::string_view name);

}  // namespace warpsim::workloads

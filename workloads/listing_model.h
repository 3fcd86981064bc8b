// A workload model driven by a SASS listing: the model says how its CUDA twin is launched (grid,
// block, registers, shared memory, the parameter bytes, and — where loaded values steer the
// kernel — the memory contents); the SASS emulator and walker turn the compiled code into each
// warp's instruction stream, CTA by CTA, on demand.
#pragma once

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "traces/dim3.h"
#include "workloads/sass_emulator.h"
#include "workloads/sass_listing.h"
#include "workloads/workload.h"

namespace warpsim::workloads {

/// The listing of the CUDA twins compiled for sm_90 (workloads/sass/h200_sm90.sass), parsed once.
const SassListing& sm90_listing();

/// Kernel parameter bytes laid out as the CUDA ABI does (each value at its natural alignment).
class ParamPacker {
 public:
  template <class T>
  ParamPacker& add(T value) {
    const size_t align = sizeof(T);
    bytes_.resize((bytes_.size() + align - 1) / align * align);
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
    return *this;
  }
  std::vector<uint8_t> bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

/// The parameter every listing model takes besides its own: MiB of device memory allocated
/// before the kernel's buffers, as the twins' TWINS_PAD_MB does (validate/capture/
/// placement_runs.sh). The L2 maps addresses to slices and sets, so at a cache's capacity knee
/// what a kernel misses or writes back moves with where its buffers lie.
inline constexpr const char* kPadParam = "pad_mb";

/// Virtual device addresses for a model's buffers: 2 MiB-aligned, in allocation order, as
/// cudaMalloc hands out distinct allocations, after `pad_mb` MiB (rounded up to 2 MiB).
class AddressSpace {
 public:
  explicit AddressSpace(const Params& params);
  uint64_t allocate(uint64_t bytes);

 private:
  uint64_t next_ = 0;
};

/// How one run of a model's kernel is launched.
struct KernelLaunch {
  traces::Dim3 grid{1, 1, 1};
  traces::Dim3 block{1, 1, 1};
  uint32_t registers_per_thread = 0;  ///< From the twin's compiled code (ncu's launch__registers).
  uint32_t static_shared_bytes = 0;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> parameters;
  MemoryReader memory;  ///< Values of loads that steer the kernel; empty when none do.
  std::string function;  ///< Listing function when it depends on the parameters; empty: the spec's.
  /// Guard predicates the emulator cannot compute, by PC (see LaunchContext).
  std::map<uint32_t, bool> assumed_predicates{};
};

/// Everything that defines a listing-driven model.
struct ModelSpec {
  std::string name;
  std::string category;
  std::string description;
  std::string function;  ///< Substring of the mangled name in the listing, e.g. "5w_copyE".
  std::vector<ParamSpec> params;
  std::function<KernelLaunch(const Params&)> launch;
};

/// A Workload built from a ModelSpec.
class ListingModel final : public Workload {
 public:
  explicit ListingModel(ModelSpec spec) : spec_(std::move(spec)) {}
  std::string_view name() const override { return spec_.name; }
  std::string_view category() const override { return spec_.category; }
  std::string_view description() const override { return spec_.description; }
  /// The spec's parameters, then kPadParam.
  std::vector<ParamSpec> params() const override;
  std::unique_ptr<traces::KernelSource> make_source(const Params& params) const override;

 private:
  ModelSpec spec_;
};

/// The specs of each family of models (one file each).
std::vector<ModelSpec> streaming_models();
std::vector<ModelSpec> compute_models();
std::vector<ModelSpec> memory_models();
std::vector<ModelSpec> tensor_models();

}  // namespace warpsim::workloads

#include "workloads/listing_model.h"

#include "arch/embedded_file.h"
#include "arch/error.h"
#include "traces/kernel_source.h"
#include "workloads/models.h"
#include "workloads/sass_walker.h"

namespace warpsim {
extern const EmbeddedFile kSassListings[];
}

namespace warpsim::workloads {
namespace {

// The rest of one warp's stream: its own emulator (a copy of the source's, sharing the decoded
// program) and walk, advanced a piece at a time by whichever thread runs the warp.
class ListingWarpStream final : public traces::WarpStream {
 public:
  ListingWarpStream(std::shared_ptr<const SassWalker> walker, const SassEmulator& emulator,
                    uint32_t piece)
      : walker_(std::move(walker)), emulator_(emulator), piece_(piece) {}

  /// Starts the warp: its lanes and position. Returns false when it runs to the end at once.
  bool start(traces::LaneMask mask, traces::WarpTrace& warp) {
    walker_->start(mask, state_);
    return walker_->walk_some(state_, emulator_, warp, piece_);
  }

  bool append(traces::WarpTrace& warp) override {
    if (state_.done) return false;
    // Up to a piece in all with the instructions still held, so that the buffers keep their size.
    const size_t held = warp.instructions.size();
    walker_->walk_some(state_, emulator_, warp, held < piece_ ? piece_ - held : 1);
    return warp.instructions.size() > held;
  }

 private:
  std::shared_ptr<const SassWalker> walker_;  // holds the opcode table its ids point into
  SassEmulator emulator_;
  WalkState state_;
  uint32_t piece_;
};

// Streams the CTAs of one listing-driven kernel, generating each warp when its CTA is read, or
// with stream_warps, a piece at a time as the warp runs.
class ListingKernelSource final : public traces::KernelSource {
 public:
  ListingKernelSource(const ModelSpec& spec, const Params& params)
      : spec_(spec),
        params_(params.to_string()),
        launch_(spec.launch(params)),
        function_(sm90_listing().function(launch_.function.empty() ? spec.function
                                                                  : launch_.function)),
        opcodes_(std::make_shared<traces::OpcodeTable>(traces::Isa::kSm90)),
        walker_(std::make_shared<OwningWalker>(function_, opcodes_)),
        emulator_(function_,
                  LaunchContext{launch_.grid, launch_.block, {0, 0, 0}, 0, launch_.parameters,
                                0x210, launch_.assumed_predicates},
                  launch_.memory) {
    info_.name = function_.name;
    info_.grid = launch_.grid;
    info_.block = launch_.block;
    info_.cluster = {1, 1, 1};
    info_.registers_per_thread = launch_.registers_per_thread;
    info_.static_shared_bytes = launch_.static_shared_bytes;
    info_.dynamic_shared_bytes = launch_.dynamic_shared_bytes;
    info_.isa = traces::Isa::kSm90;
    info_.binary_version = 90;
    info_.source_gpu = "workload model " + spec.name + " (" + params_ + ")";
    info_.opcodes = opcodes_;
    info_.validate("workload " + spec.name);
  }

  bool next_kernel(traces::KernelInfo& kernel) override {
    if (kernel_done_) return false;
    kernel_done_ = true;
    started_ = true;
    kernel = info_;
    return true;
  }

  bool next_cta(traces::CtaTrace& cta) override {
    if (!started_ || next_cta_ >= info_.cta_count()) return false;
    const traces::Dim3 index = traces::index_from_linear(next_cta_++, info_.grid);
    const uint32_t warps = info_.warps_per_cta();
    const uint64_t threads = info_.block.volume();
    cta.index = index;
    cta.cluster.reset();
    cta.reset(warps);
    for (uint32_t w = 0; w < warps; ++w) {
      const uint64_t first = uint64_t{w} * 32;
      const uint64_t lanes = std::min<uint64_t>(32, threads - first);
      const traces::LaneMask mask = lanes == 32 ? 0xFFFFFFFFull : ((1ull << lanes) - 1);
      emulator_.start_warp(index, w);
      if (piece_ == 0) {
        walker_->walker.walk(mask, emulator_, cta.warps[w]);
        continue;
      }
      // The stream shares the walker (and through it the opcode table) for as long as the warp
      // runs, which may be after this source is gone.
      auto stream = std::make_shared<ListingWarpStream>(
          std::shared_ptr<const SassWalker>(walker_, &walker_->walker), emulator_, piece_);
      if (stream->start(mask, cta.warps[w])) cta.warps[w].more = std::move(stream);
    }
    return true;
  }

  void stream_warps(uint32_t instructions) override { piece_ = instructions; }

  std::string describe() const override { return "workload " + spec_.name + " (" + params_ + ")"; }

 private:
  const ModelSpec& spec_;
  std::string params_;
  KernelLaunch launch_;
  const SassFunction& function_;
  // A walker that keeps the opcode table its interned ids and infos point into.
  struct OwningWalker {
    OwningWalker(const SassFunction& function, std::shared_ptr<traces::OpcodeTable> table)
        : opcodes(std::move(table)), walker(function, *opcodes) {}
    std::shared_ptr<traces::OpcodeTable> opcodes;
    SassWalker walker;
  };

  std::shared_ptr<traces::OpcodeTable> opcodes_;
  std::shared_ptr<OwningWalker> walker_;
  SassEmulator emulator_;
  uint32_t piece_ = 0;  // instructions per piece of a streamed warp; 0: whole warps
  traces::KernelInfo info_;
  bool kernel_done_ = false;
  bool started_ = false;
  uint64_t next_cta_ = 0;
};

}  // namespace

const SassListing& sm90_listing() {
  static const SassListing listing = [] {
    for (const EmbeddedFile* f = kSassListings; f->path != nullptr; ++f) {
      if (std::string_view(f->path) == "h200_sm90.sass") {
        return parse_sass_listing(std::string_view(f->data, f->size),
                                  "workloads/sass/h200_sm90.sass");
      }
    }
    throw InternalError("workloads/sass/h200_sm90.sass is not embedded");
  }();
  return listing;
}

namespace {
constexpr uint64_t kAlign = 2ull << 20;
constexpr int64_t kMaxPadMb = int64_t{1} << 20;  // 1 TiB of padding
}  // namespace

AddressSpace::AddressSpace(const Params& params) {
  const int64_t pad_mb = params.get(kPadParam);
  if (pad_mb > kMaxPadMb) {
    throw InputError("--param " + std::string(kPadParam) + "=" + std::to_string(pad_mb) +
                     ": expected at most " + std::to_string(kMaxPadMb) + " MiB");
  }
  const uint64_t pad = static_cast<uint64_t>(pad_mb) << 20;
  next_ = 0x7f0000000000ull + (pad + kAlign - 1) / kAlign * kAlign;
}

uint64_t AddressSpace::allocate(uint64_t bytes) {
  const uint64_t at = next_;
  next_ += (bytes + kAlign - 1) / kAlign * kAlign + kAlign;
  return at;
}

std::vector<ParamSpec> ListingModel::params() const {
  std::vector<ParamSpec> out = spec_.params;
  out.push_back({kPadParam, 0,
                 "MiB allocated before the buffers (another placement: moves the L2's slice and "
                 "set of every line)",
                 0});
  return out;
}

std::unique_ptr<traces::KernelSource> ListingModel::make_source(const Params& params) const {
  return std::make_unique<ListingKernelSource>(spec_, params);
}

std::vector<std::unique_ptr<Workload>> make_models() {
  std::vector<std::unique_ptr<Workload>> out;
  for (auto* family : {&streaming_models, &compute_models, &tensor_models, &memory_models}) {
    for (ModelSpec& spec : family()) out.push_back(std::make_unique<ListingModel>(std::move(spec)));
  }
  return out;
}

}  // namespace warpsim::workloads

#include "traces/kernel_summary.h"

#include <algorithm>
#include <limits>
#include <span>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

constexpr size_t kMinCompaction = size_t{1} << 16;

bool addresses_device_memory(MemSpace space) {
  return space == MemSpace::kGlobal || space == MemSpace::kGeneric ||
         space == MemSpace::kGlobalToShared;
}

}  // namespace

void KernelSummarizer::SectorSet::insert(uint64_t sector) {
  sectors_.push_back(sector);
  if (sectors_.size() >= 2 * std::max(compacted_size_, kMinCompaction)) compact();
}

uint64_t KernelSummarizer::SectorSet::count() {
  compact();
  return sectors_.size();
}

void KernelSummarizer::SectorSet::compact() {
  std::sort(sectors_.begin(), sectors_.end());
  sectors_.erase(std::unique(sectors_.begin(), sectors_.end()), sectors_.end());
  compacted_size_ = sectors_.size();
}

KernelSummarizer::KernelSummarizer(const KernelInfo& kernel) : opcodes_(kernel.opcodes.get()) {
  if (opcodes_ == nullptr) {
    throw InputError("kernel summary: kernel '" + kernel.name + "' has no opcode table");
  }
}

void KernelSummarizer::add_footprint(MemSpace space, uint64_t address, uint32_t width) {
  const uint64_t span = width == 0 ? 0 : width - 1;
  const uint64_t last_byte = address > std::numeric_limits<uint64_t>::max() - span
                                 ? std::numeric_limits<uint64_t>::max()
                                 : address + span;
  const bool device = addresses_device_memory(space);
  for (uint64_t sector = address / kSectorBytes; sector <= last_byte / kSectorBytes; ++sector) {
    spaces_[static_cast<size_t>(space)].insert(sector);
    if (device) device_.insert(sector);
  }
}

void KernelSummarizer::add(const CtaTrace& cta) {
  ++summary_.ctas;
  for (const WarpTrace& warp : cta.warps) {
    ++summary_.warps;
    for (const WarpInstruction& inst : warp.instructions) {
      if (inst.opcode >= infos_.size()) {
        const size_t first = infos_.size();
        infos_.resize(opcodes_->size());
        used_.resize(opcodes_->size(), 0);
        for (size_t id = first; id < infos_.size(); ++id) {
          infos_[id] = &opcodes_->info(static_cast<OpcodeId>(id));
        }
        if (inst.opcode >= infos_.size()) opcodes_->info(inst.opcode);  // throws: bad id
      }
      const OpcodeInfo& info = *infos_[inst.opcode];
      used_[inst.opcode] = 1;
      ++summary_.warp_instructions;
      summary_.thread_instructions += popcount(inst.active_mask);
      ++summary_.by_class[static_cast<size_t>(info.op_class)];
      if (!info.is_memory()) continue;
      ++summary_.memory[static_cast<size_t>(info.space)][static_cast<size_t>(info.access)];
      const std::span<const uint64_t> lanes = warp.lane_addresses(inst);
      if (!lanes.empty())
        summary_.bytes_requested += uint64_t{inst.mem_width} * popcount(inst.active_mask);
      for (const uint64_t address : lanes) add_footprint(info.space, address, inst.mem_width);
      if (const InstructionExtras* ex = warp.extras_of(inst); ex != nullptr && ex->tma) {
        summary_.bytes_requested += ex->tma->bytes;
      }
    }
  }
}

KernelSummary KernelSummarizer::finish() {
  for (size_t space = 0; space < spaces_.size(); ++space) {
    summary_.sectors[space] = spaces_[space].count();
  }
  summary_.device_sectors = device_.count();
  summary_.unknown_opcodes.clear();
  for (size_t id = 0; id < infos_.size(); ++id) {
    if (used_[id] != 0 && !infos_[id]->known) {
      summary_.unknown_opcodes.push_back(infos_[id]->mnemonic);
    }
  }
  std::sort(summary_.unknown_opcodes.begin(), summary_.unknown_opcodes.end());
  return summary_;
}

KernelSummary summarize_kernel(const KernelInfo& kernel, KernelSource& source) {
  KernelSummarizer summarizer(kernel);
  CtaTrace cta;
  while (source.next_cta(cta)) summarizer.add(cta);
  return summarizer.finish();
}

}  // namespace warpsim::traces

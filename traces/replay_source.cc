#include "traces/replay_source.h"

#include <algorithm>

namespace warpsim::traces {

bool ReplaySource::next_kernel(KernelInfo& kernel) {
  if (!inner_->next_kernel(kernel)) return false;
  ++kernels_;
  if (kernel.opcodes && std::find(tables_.begin(), tables_.end(), kernel.opcodes) == tables_.end()) {
    tables_.push_back(kernel.opcodes);
  }
  return true;
}

std::vector<std::string> ReplaySource::warnings(Isa target) const {
  std::vector<std::string> out;
  for (const auto& table : tables_) {
    if (std::string missing = table->missing_opcode_warning(target); !missing.empty()) {
      out.push_back(std::move(missing));
    }
    const std::vector<std::string> unknown = table->unknown_mnemonics();
    if (unknown.empty()) continue;
    std::string text = "opcodes without an entry in the " + std::string(isa_name(table->isa())) +
                       " table (timed as unknown): ";
    for (size_t i = 0; i < unknown.size() && i < 20; ++i) text += (i ? ", " : "") + unknown[i];
    if (unknown.size() > 20) text += ", … (" + std::to_string(unknown.size()) + " in all)";
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace warpsim::traces

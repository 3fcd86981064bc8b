#include "sim/gpu/cta_log.h"

#include <algorithm>
#include <ostream>
#include <tuple>

#include "arch/error.h"

namespace warpsim::gpu {

// One SM's CTAs: those resident, by slot, and those retired.
class CtaLog::SmRecorder final : public core::Observer {
 public:
  explicit SmRecorder(int sm) : sm_(sm) {}

  void on_cta_launch(const core::CtaEvent& e) override {
    const auto slot = static_cast<std::size_t>(e.cta_slot);
    if (open_.size() <= slot) open_.resize(slot + 1);
    open_[slot] = CtaRecord{e.index, sm_, e.cta_slot, e.cycle, 0};
    ++resident_;
  }
  void on_cta_retire(const core::CtaEvent& e) override {
    const auto slot = static_cast<std::size_t>(e.cta_slot);
    if (slot >= open_.size() || resident_ == 0) {
      throw InternalError("CTA log: SM " + std::to_string(sm_) + " retired slot " +
                          std::to_string(e.cta_slot) + ", which holds no CTA");
    }
    CtaRecord r = open_[slot];
    r.retire = e.cycle;
    done_.push_back(r);
    --resident_;
  }

  // Hands over the retired CTAs; throws when some are still resident.
  std::vector<CtaRecord> take() {
    if (resident_ != 0) {
      throw InternalError("CTA log: SM " + std::to_string(sm_) + " still holds " +
                          std::to_string(resident_) + " CTAs at the kernel's end");
    }
    std::vector<CtaRecord> out;
    out.swap(done_);
    return out;
  }

 private:
  int sm_;
  std::uint32_t resident_ = 0;
  std::vector<CtaRecord> open_;  // by slot
  std::vector<CtaRecord> done_;
};

CtaLog::CtaLog(int sms) {
  for (int s = 0; s < sms; ++s) recorders_.push_back(std::make_unique<SmRecorder>(s));
}

CtaLog::~CtaLog() = default;

core::Observer& CtaLog::observer(int sm) { return *recorders_.at(static_cast<std::size_t>(sm)); }

void CtaLog::start_kernel(const std::string& name) { kernels_.push_back({name, {}}); }

void CtaLog::end_kernel() {
  if (kernels_.empty()) throw InternalError("CTA log: end_kernel() before start_kernel()");
  std::vector<CtaRecord>& all = kernels_.back().ctas;
  for (auto& r : recorders_) {
    std::vector<CtaRecord> part = r->take();
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end(), [](const CtaRecord& a, const CtaRecord& b) {
    return std::tie(a.launch, a.sm, a.slot) < std::tie(b.launch, b.sm, b.slot);
  });
}

void CtaLog::write_tsv(std::ostream& os) const {
  os << "kernel\tcta_x\tcta_y\tcta_z\tsm\tslot\tlaunch_cycle\tretire_cycle\n";
  for (const KernelCtaLog& k : kernels_) {
    for (const CtaRecord& r : k.ctas) {
      os << k.name << '\t' << r.index.x << '\t' << r.index.y << '\t' << r.index.z << '\t' << r.sm
         << '\t' << r.slot << '\t' << r.launch << '\t' << r.retire << '\n';
    }
  }
}

}  // namespace warpsim::gpu

// Small components for engine tests: a scripted sender, a recording receiver, and helpers.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/component.h"
#include "sim/engine/port.h"

namespace warpsim::engine::testing {

/// A component whose tick is a lambda; records every cycle at which it was ticked.
class LambdaComponent : public Component {
 public:
  using TickFn = std::function<Cycle(LambdaComponent&, Cycle)>;
  LambdaComponent(std::string name, const ClockDomain& domain, TickFn fn)
      : Component(std::move(name), domain), fn_(std::move(fn)) {}

  Cycle tick(Cycle now) override {
    ticked_at.push_back(now);
    return fn_(*this, now);
  }
  bool busy() const override { return busy_flag; }
  void dump_state(std::ostream& out) const override { out << "state=" << state_text; }

  void progress() { note_progress(); }

  std::vector<Cycle> ticked_at;
  bool busy_flag = false;
  std::string state_text = "idle";

 private:
  TickFn fn_;
};

}  // namespace warpsim::engine::testing

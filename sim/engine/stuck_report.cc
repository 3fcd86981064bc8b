#include "sim/engine/stuck_report.h"

#include <ostream>

namespace warpsim::engine {

void write_stuck_report(std::ostream& out, std::span<const Component* const> stuck) {
  if (stuck.empty()) {
    out << "no component is busy or scheduled\n";
    return;
  }
  out << stuck.size() << " stuck component" << (stuck.size() == 1 ? "" : "s") << ":\n";
  std::size_t shown = 0;
  for (const Component* c : stuck) {
    if (shown == kMaxDumpedComponents) {
      out << "... and " << (stuck.size() - shown) << " more\n";
      break;
    }
    ++shown;
    out << "- " << c->name() << " [" << c->domain().name() << "] last tick at cycle "
        << c->current_cycle() << ", ";
    if (c->next_wake_cycle() == kSleep) {
      out << "asleep";
    } else {
      out << "next cycle " << c->next_wake_cycle();
    }
    out << (c->busy() ? ", busy" : ", idle") << "\n  state: ";
    c->dump_state(out);
    out << "\n";
  }
}

}  // namespace warpsim::engine

#include "sim/engine/component.h"

#include <ostream>
#include <utility>

namespace warpsim::engine {

Component::Component(std::string name, const ClockDomain& domain)
    : name_(std::move(name)), domain_(&domain) {}

Component::~Component() = default;

void Component::commit(Cycle /*now*/) {}

bool Component::busy() const { return false; }

void Component::dump_state(std::ostream& out) const { out << "(no state reported)"; }

}  // namespace warpsim::engine

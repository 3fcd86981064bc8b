#include "sim/engine/port.h"

#include "arch/error.h"

namespace warpsim::engine {

PortBase::PortBase(Component& sender, Component& receiver, const PortConfig& config,
                   const Time* now)
    : now_(now),
      capacity_(config.capacity),
      name_(config.name.empty() ? sender.name() + "->" + receiver.name() : config.name),
      sender_(&sender),
      receiver_(&receiver),
      sender_domain_(&sender.domain()),
      receiver_domain_(&receiver.domain()),
      latency_(config.latency_ps) {}

PortBase::~PortBase() = default;

void PortBase::fail(const char* what) const {
  throw InternalError("port '" + name_ + "': " + what + " at " + std::to_string(*now_) +
                      " ps (occupancy " + std::to_string(occupancy()) + ", capacity " +
                      std::to_string(capacity_) + ")");
}

}  // namespace warpsim::engine

// The pair of ports that joins a requester to the unit serving it: requests one way, responses
// the other. Units are wired by whoever assembles them (memory_system.h, or a test bench), which
// hands each unit the ends it uses.
//
// Left out: nothing to model here; latency and capacity live on the ports themselves.
#pragma once

#include "sim/engine/port.h"
#include "sim/mem/mem_request.h"

namespace warpsim::mem {

/// A request port and the response port that answers it (pointers owned by the engine).
struct MemLink {
  engine::Port<MemRequest>* request = nullptr;    ///< requester -> server
  engine::Port<MemResponse>* response = nullptr;  ///< server -> requester
};

}  // namespace warpsim::mem

// The statistics registry. Components own plain counter structs (`struct L1Counters { uint64_t
// hits, misses; }`) and register each field once, with a hierarchical name that follows the
// component tree (`gpu.sm[12].l1.hits`), a unit and a description. The registry keeps pointers: the
// simulation's hot path increments plain integers and never touches the registry, so a counter that
// is not registered, or registered and disabled, costs nothing beyond its increment.
//
// Besides counters and gauges (doubles), the registry holds formulas and pattern aggregates, which
// are evaluated only when a snapshot is taken, so they always reflect the counters' current values.
// Names containing "__" are Nsight Compute metrics: they must be in the ncu catalogue and carry its
// unit, or registration throws. Registration mistakes (duplicates, malformed names, a name that is
// both a value and a group) are programming errors and throw warpsim::InternalError.
//
// Not thread-safe: register and snapshot from one thread (counters themselves are owned, and
// incremented, by whichever thread steps their component).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/stats/formula.h"
#include "sim/stats/snapshot.h"

namespace warpsim::stats {

class StatScope;

/// Holds every registered statistic and produces snapshots of them.
class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  /// Registers an event counter. `counter` must outlive the registry; reset_counters() zeroes it.
  void add_counter(std::string_view name, std::uint64_t* counter, std::string_view unit,
                   std::string_view description);

  /// Registers a gauge: a double the component keeps current (e.g. a configured clock).
  void add_gauge(std::string_view name, const double* gauge, std::string_view unit,
                 std::string_view description);

  /// Registers a formula, evaluated at snapshot time from other stats.
  void add_formula(std::string_view name, std::string_view unit, std::string_view description,
                   Formula formula);

  /// Registers an aggregate over every stat matching `pattern` (e.g. smsp__inst_executed.sum over
  /// "gpu.sm[*].smsp[*].inst_executed"). At snapshot time all matched stats must have `unit`.
  void add_aggregate(std::string_view name, std::string_view unit, std::string_view description,
                     Aggregate how, std::string_view pattern);

  /// Registers ncu roll-ups `<ncu_base>.sum`, `.avg`, ... over `pattern`, one per entry of `hows`,
  /// with the catalogue's unit and meaning (each name must be in the catalogue).
  void add_rollups(std::string_view ncu_base, std::string_view pattern,
                   std::initializer_list<Aggregate> hows);

  /// Leaves stats matching `pattern`, registered before or after, out of snapshots. Formulas and
  /// aggregates still read them (e.g. keep a GPU-wide sum, drop the per-SM detail).
  void disable(std::string_view pattern);

  /// Sets every registered counter to 0 (e.g. between kernels). Gauges are left alone.
  void reset_counters();

  /// True when a stat named `name` is registered.
  bool contains(std::string_view name) const;

  /// Number of registered stats of all kinds.
  std::size_t size() const { return entries_.size(); }

  /// Evaluates every enabled stat now. Throws warpsim::InternalError when a formula reads an
  /// unknown stat, formulas form a cycle, or an aggregate matches stats of another unit.
  Snapshot snapshot();

  /// A helper that prefixes names with `prefix` (the component's place in the tree).
  StatScope scope(std::string_view prefix);

 private:
  class Evaluator;
  enum class Kind : std::uint8_t { kCounter, kGauge, kFormula, kAggregate };
  enum class Node : std::uint8_t { kGroup, kList, kValue };

  struct Entry {
    std::string name;
    std::string unit;
    std::string description;
    Kind kind = Kind::kCounter;
    bool metric = false;  // an ncu metric rather than a hierarchical stat
    bool enabled = true;  // reported in snapshots
    std::uint64_t* counter = nullptr;
    const double* gauge = nullptr;
    Formula formula;
    Aggregate how = Aggregate::kSum;
    std::string pattern;
  };

  struct NodeInfo {
    Node node;
    std::string first_name;  // the stat whose registration created this node, for messages
  };

  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  Entry& add_entry(std::string_view name, std::string_view unit, std::string_view description,
                   Kind kind);
  void claim_tree_nodes(const std::string& name);
  const std::vector<std::size_t>& matches(std::string_view pattern);
  std::size_t index_of(std::string_view name) const;  // throws when unknown

  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> index_;
  std::unordered_map<std::string, NodeInfo> nodes_;
  std::vector<std::string> disabled_;
  std::unordered_map<std::string, std::vector<std::size_t>, StringHash, std::equal_to<>>
      match_cache_;
  // Entries by the last segment of their name (after the last '.'), in registration order: a
  // pattern ending in a literal segment is matched against that bucket only. Built on demand.
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_last_segment_;
};

/// Registers stats under a common prefix: `registry.scope("gpu.sm[3].l1").add_counter("hits",
/// ...)` registers "gpu.sm[3].l1.hits".
class StatScope {
 public:
  StatScope(Registry& registry, std::string prefix)
      : registry_(&registry), prefix_(std::move(prefix)) {}

  /// The full name of `name` inside this scope.
  std::string path(std::string_view name) const;

  /// A nested scope, e.g. scope("gpu").child("sm[3]").
  StatScope child(std::string_view name) const { return StatScope(*registry_, path(name)); }

  void add_counter(std::string_view name, std::uint64_t* counter, std::string_view unit,
                   std::string_view description) const {
    registry_->add_counter(path(name), counter, unit, description);
  }
  void add_gauge(std::string_view name, const double* gauge, std::string_view unit,
                 std::string_view description) const {
    registry_->add_gauge(path(name), gauge, unit, description);
  }
  void add_formula(std::string_view name, std::string_view unit, std::string_view description,
                   Formula formula) const {
    registry_->add_formula(path(name), unit, description, std::move(formula));
  }

 private:
  Registry* registry_;
  std::string prefix_;
};

}  // namespace warpsim::stats

#include "sim/stats/registry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "arch/error.h"
#include "sim/stats/ncu_catalogue.h"
#include "sim/stats/stat_name.h"

namespace warpsim::stats {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::string_view aggregate_suffix(Aggregate how) {
  switch (how) {
    case Aggregate::kSum:
      return "sum";
    case Aggregate::kAvg:
      return "avg";
    case Aggregate::kMax:
      return "max";
    case Aggregate::kMin:
      return "min";
  }
  return "sum";
}

// Evaluates entries on demand, each at most once per snapshot, detecting cycles among formulas.
class Registry::Evaluator final : public FormulaContext {
 public:
  explicit Evaluator(Registry& registry)
      : registry_(registry), values_(registry.entries_.size()), state_(values_.size(), kTodo) {}

  StatValue eval(std::size_t i) const {
    if (state_[i] == kDone) return values_[i];
    const Entry& entry = registry_.entries_[i];
    if (state_[i] == kBusy) {
      throw InternalError("stat " + quoted(entry.name) + " depends on itself through formulas");
    }
    state_[i] = kBusy;
    StatValue value;
    switch (entry.kind) {
      case Kind::kCounter:
        value = *entry.counter;
        break;
      case Kind::kGauge:
        value = *entry.gauge;
        break;
      case Kind::kFormula:
        value = entry.formula(*this);
        break;
      case Kind::kAggregate:
        value = aggregate_entry(entry);
        break;
    }
    values_[i] = value;
    state_[i] = kDone;
    return value;
  }

  double value(std::string_view name) const override {
    return to_double(eval(registry_.index_of(name)));
  }

  double aggregate(Aggregate how, std::string_view pattern) const override {
    return to_double(combine(how, registry_.matches(pattern)));
  }

  std::size_t count(std::string_view pattern) const override {
    return registry_.matches(pattern).size();
  }

 private:
  static constexpr std::uint8_t kTodo = 0;
  static constexpr std::uint8_t kBusy = 1;
  static constexpr std::uint8_t kDone = 2;

  StatValue aggregate_entry(const Entry& entry) const {
    const std::vector<std::size_t>& matched = registry_.matches(entry.pattern);
    for (std::size_t i : matched) {
      const Entry& source = registry_.entries_[i];
      if (source.unit != entry.unit) {
        throw InternalError("aggregate " + quoted(entry.name) + " has unit " + quoted(entry.unit) +
                            " but pattern " + quoted(entry.pattern) + " matches " +
                            quoted(source.name) + " with unit " + quoted(source.unit));
      }
    }
    return combine(entry.how, matched);
  }

  // Integers stay exact for sum, max and min; any real operand makes the result real.
  StatValue combine(Aggregate how, const std::vector<std::size_t>& matched) const {
    if (matched.empty()) return how == Aggregate::kSum ? StatValue{std::uint64_t{0}} : kUndefined;
    bool all_integer = true;
    std::uint64_t isum = 0;
    std::uint64_t imax = 0;
    std::uint64_t imin = std::numeric_limits<std::uint64_t>::max();
    double dsum = 0;
    double dmax = -std::numeric_limits<double>::infinity();
    double dmin = std::numeric_limits<double>::infinity();
    for (std::size_t i : matched) {
      StatValue v = eval(i);
      if (const auto* integer = std::get_if<std::uint64_t>(&v)) {
        isum += *integer;
        imax = std::max(imax, *integer);
        imin = std::min(imin, *integer);
      } else {
        all_integer = false;
      }
      const double d = to_double(v);
      dsum += d;
      dmax = std::max(dmax, d);
      dmin = std::min(dmin, d);
    }
    switch (how) {
      case Aggregate::kSum:
        return all_integer ? StatValue{isum} : StatValue{dsum};
      case Aggregate::kAvg:
        return (all_integer ? static_cast<double>(isum) : dsum) /
               static_cast<double>(matched.size());
      case Aggregate::kMax:
        return all_integer ? StatValue{imax} : StatValue{dmax};
      case Aggregate::kMin:
        return all_integer ? StatValue{imin} : StatValue{dmin};
    }
    return kUndefined;
  }

  Registry& registry_;
  mutable std::vector<StatValue> values_;
  mutable std::vector<std::uint8_t> state_;
};

Registry::Entry& Registry::add_entry(std::string_view name, std::string_view unit,
                                     std::string_view description, Kind kind) {
  std::string key(name);
  if (index_.contains(key)) throw InternalError("stat " + quoted(name) + " registered twice");
  Entry entry;
  entry.unit = std::string(canonical_unit(unit));
  entry.description = std::string(description);
  if (is_ncu_name(name)) {
    const NcuMetric* metric = find_ncu_metric(name);
    if (metric == nullptr) {
      throw InternalError("stat " + quoted(name) +
                          " looks like an Nsight Compute metric ('__') but is not in the ncu "
                          "catalogue (sim/stats/ncu_catalogue.cc)");
    }
    if (entry.unit != metric->unit) {
      throw InternalError("ncu metric " + quoted(name) + " registered with unit " + quoted(unit) +
                          "; ncu's unit is " + quoted(metric->unit));
    }
    if (entry.description.empty()) entry.description = metric->meaning;
    entry.metric = true;
  } else {
    if (entry.description.empty()) {
      throw InternalError("stat " + quoted(name) + " registered without a description");
    }
    claim_tree_nodes(key);  // last: a rejected registration must not leave nodes behind
  }
  entry.name = std::move(key);
  entry.kind = kind;
  for (const std::string& pattern : disabled_) {
    if (matches_pattern(pattern, entry.name)) entry.enabled = false;
  }
  index_.emplace(entry.name, entries_.size());
  match_cache_.clear();
  by_last_segment_.clear();
  entries_.push_back(std::move(entry));
  return entries_.back();
}

// Every prefix of a hierarchical name becomes a group, a list (a key followed by an index) or,
// for the whole name, a value; the JSON nesting needs each prefix to be only one of these.
void Registry::claim_tree_nodes(const std::string& name) {
  std::vector<NameSegment> segments = parse_stat_name(name);
  std::vector<std::pair<std::string, Node>> wanted;
  std::string prefix;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const bool last = i + 1 == segments.size();
    if (!prefix.empty()) prefix += '.';
    prefix += segments[i].key;
    if (segments[i].index) {
      wanted.emplace_back(prefix, Node::kList);
      prefix += '[' + std::to_string(*segments[i].index) + ']';
    }
    wanted.emplace_back(prefix, last ? Node::kValue : Node::kGroup);
  }
  for (const auto& [path, node] : wanted) {
    auto it = nodes_.find(path);
    if (it != nodes_.end() && it->second.node != node) {
      throw InternalError("stat " + quoted(name) + " conflicts with " +
                          quoted(it->second.first_name) + ": " + quoted(path) +
                          " cannot be both a value, a group and a list of instances");
    }
  }
  for (const auto& [path, node] : wanted) nodes_.try_emplace(path, NodeInfo{node, name});
}

void Registry::add_counter(std::string_view name, std::uint64_t* counter, std::string_view unit,
                           std::string_view description) {
  if (counter == nullptr) throw InternalError("counter " + quoted(name) + " is a null pointer");
  add_entry(name, unit, description, Kind::kCounter).counter = counter;
}

void Registry::add_gauge(std::string_view name, const double* gauge, std::string_view unit,
                         std::string_view description) {
  if (gauge == nullptr) throw InternalError("gauge " + quoted(name) + " is a null pointer");
  add_entry(name, unit, description, Kind::kGauge).gauge = gauge;
}

void Registry::add_formula(std::string_view name, std::string_view unit,
                           std::string_view description, Formula formula) {
  if (!formula) throw InternalError("formula " + quoted(name) + " is empty");
  add_entry(name, unit, description, Kind::kFormula).formula = std::move(formula);
}

void Registry::add_aggregate(std::string_view name, std::string_view unit,
                             std::string_view description, Aggregate how,
                             std::string_view pattern) {
  if (pattern.empty()) throw InternalError("aggregate " + quoted(name) + " has an empty pattern");
  Entry& entry = add_entry(name, unit, description, Kind::kAggregate);
  entry.how = how;
  entry.pattern = std::string(pattern);
}

void Registry::add_rollups(std::string_view ncu_base, std::string_view pattern,
                           std::initializer_list<Aggregate> hows) {
  std::vector<std::pair<const NcuMetric*, Aggregate>> rollups;
  for (Aggregate how : hows) {  // check every name before registering any
    const std::string name = std::string(ncu_base) + "." + std::string(aggregate_suffix(how));
    const NcuMetric* metric = find_ncu_metric(name);
    if (metric == nullptr) {
      throw InternalError("roll-up " + quoted(name) + " is not in the ncu catalogue");
    }
    rollups.emplace_back(metric, how);
  }
  for (const auto& [metric, how] : rollups) {
    add_aggregate(metric->name, metric->unit, metric->meaning, how, pattern);
  }
}

void Registry::disable(std::string_view pattern) {
  disabled_.emplace_back(pattern);
  for (Entry& entry : entries_) {
    if (matches_pattern(pattern, entry.name)) entry.enabled = false;
  }
}

void Registry::reset_counters() {
  for (Entry& entry : entries_) {
    if (entry.kind == Kind::kCounter) *entry.counter = 0;
  }
}

bool Registry::contains(std::string_view name) const { return index_.find(name) != index_.end(); }

std::size_t Registry::index_of(std::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw InternalError("formula reads unknown stat " + quoted(name));
  return it->second;
}

const std::vector<std::size_t>& Registry::matches(std::string_view pattern) {
  auto it = match_cache_.find(pattern);
  if (it != match_cache_.end()) return it->second;
  std::vector<std::size_t> found;
  // A name matches only if it ends with the literal text after the pattern's last '*'. When that
  // text holds a '.', the name's last segment is the text after it: look in that bucket alone.
  const std::size_t star = pattern.rfind('*');
  const std::string_view tail = star == std::string_view::npos ? pattern : pattern.substr(star + 1);
  const std::size_t dot = tail.rfind('.');
  if (dot != std::string_view::npos) {
    if (by_last_segment_.empty()) {
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        const std::string_view name = entries_[i].name;
        by_last_segment_[name.substr(name.rfind('.') + 1)].push_back(i);
      }
    }
    auto bucket = by_last_segment_.find(tail.substr(dot + 1));
    if (bucket != by_last_segment_.end()) {
      for (std::size_t i : bucket->second) {
        if (matches_pattern(pattern, entries_[i].name)) found.push_back(i);
      }
    }
  } else {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const std::string_view name = entries_[i].name;
      if (name.ends_with(tail) && matches_pattern(pattern, name)) found.push_back(i);
    }
  }
  return match_cache_.emplace(std::string(pattern), std::move(found)).first->second;
}

Snapshot Registry::snapshot() {
  Evaluator evaluator(*this);
  Snapshot out;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& entry = entries_[i];
    if (!entry.enabled) continue;
    (entry.metric ? out.metrics : out.stats)
        .push_back(Sample{entry.name, evaluator.eval(i), entry.unit, entry.description});
  }
  std::sort(out.metrics.begin(), out.metrics.end(),
            [](const Sample& a, const Sample& b) { return a.name < b.name; });
  std::sort(out.stats.begin(), out.stats.end(),
            [](const Sample& a, const Sample& b) { return natural_less(a.name, b.name); });
  return out;
}

StatScope Registry::scope(std::string_view prefix) { return StatScope(*this, std::string(prefix)); }

std::string StatScope::path(std::string_view name) const {
  if (prefix_.empty()) return std::string(name);
  return prefix_ + "." + std::string(name);
}

}  // namespace warpsim::stats

#include "validate/comparison.h"

#include <algorithm>

#include <Eigen/Dense>
#include <cmath>
#include <limits>

namespace warpsim::validate {

namespace {
constexpr double kMinDramBytes = 1e6;
}  // namespace

const std::vector<ComparedMetric>& compared_metrics() {
  static const std::vector<ComparedMetric> metrics = {
      {"gpc__cycles_elapsed.max", ErrorUnit::kPercent},
      // The SMs' own time, averaged over them: what the elapsed time is less the launch and the
      // tail (the last CTAs on the SMs given the most), so the two side by side say where an
      // elapsed error comes from.
      {"sm__cycles_active.avg", ErrorUnit::kPercent},
      {"smsp__inst_executed.sum", ErrorUnit::kPercent},
      {"smsp__thread_inst_executed_per_inst_executed.ratio", ErrorUnit::kPercent},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ErrorUnit::kPercent},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", ErrorUnit::kPercent},
      // DRAM bytes from 1 MB: below it the counts are dominated by traffic the kernel's loads and
      // stores do not make (instruction and constant fetches).
      {"dram__bytes_read.sum", ErrorUnit::kPercent, kMinDramBytes},
      // DRAM writes only of kernels that write at least 1 MB to the L2: the H200 writes about
      // 13-20 MB/s to DRAM whatever runs (a 20 ms kernel that touches no memory, 0.26 MB; a
      // 0.5 s pointer chase that stores one word, 10.8 MB: reference/h200/dirty_l2.tsv and
      // one_pass.tsv), which only long write-free kernels accumulate past 1 MB. The model adds
      // the median of that background (hbm.background_write_bytes), but it comes in whole MiB
      // at random times, so a write-free kernel's figure is the draw, not the kernel.
      {"dram__bytes_write.sum", ErrorUnit::kPercent, kMinDramBytes,
       std::numeric_limits<double>::infinity(), "lts__t_sectors_srcunit_tex_op_write.sum",
       kMinDramBytes / 32},
      // Hit rates only where they are rates: ncu reports over 100 % for kernels whose few L2
      // sectors are outnumbered by lookups of other units (203.9 % for one warp's FFMA chain).
      // and over at least 1 MB of L2 traffic (below it, e.g. a 128 KB pointer chase's 1024 cold
      // sectors, other units' lookups still move the rate by tens of points).
      {"lts__t_sector_hit_rate.pct", ErrorUnit::kPoints, 0.0, 100.0, "lts__t_sectors.sum",
       kMinDramBytes / 32},
      // The SMs' read sectors the L2 looks up after its request coalescer: how many reads joined
      // one in flight (the rest of the coalescable sectors), from 1 MB of reads.
      {"lts__t_sectors_srcunit_tex_op_read.sum", ErrorUnit::kPercent, kMinDramBytes / 32},
      // The L1's hit rate over every sector its tag stage looks up, loads and stores, as ncu counts
      // it (saxpy's 33 % on the H200 are its stores to the y it loaded).
      {"l1tex__t_sector_hit_rate.pct", ErrorUnit::kPoints, 0.0, 100.0},
      // Bank conflicts as the source page counts them (wavefronts beyond each access's ideal):
      // the l1tex__data_bank_conflicts counters also count arbitration with other L1 traffic
      // (4,814 on the conflict-free 33-column transpose), which the model does not time.
      {"derived__memory_l1_wavefronts_shared_excessive", ErrorUnit::kPercent},
  };
  return metrics;
}

const ComparedMetric* find_compared_metric(const std::string& name) {
  for (const ComparedMetric& m : compared_metrics()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::optional<double> metric_error(const ComparedMetric& m, double measured, double simulated) {
  if (!(measured >= m.min_measured && measured <= m.max_measured)) return std::nullopt;
  return point_error(measured, simulated, m.unit);
}

std::optional<double> metric_error(const ComparedMetric& m, const PointResult& r) {
  const auto meas = r.point->measured.find(m.name);
  const auto sim = r.simulated.find(m.name);
  if (meas == r.point->measured.end() || sim == r.simulated.end()) return std::nullopt;
  if (!m.gate_metric.empty()) {
    const auto gate = r.point->measured.find(m.gate_metric);
    if (gate == r.point->measured.end() || !(gate->second >= m.gate_min)) return std::nullopt;
  }
  return metric_error(m, meas->second, sim->second);
}

std::optional<double> point_error(double measured, double simulated, ErrorUnit unit) {
  if (unit == ErrorUnit::kPoints) return std::abs(simulated - measured);
  if (measured == 0) return simulated == 0 ? std::optional<double>(0.0) : std::nullopt;
  return 100.0 * std::abs(simulated - measured) / std::abs(measured);
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2 || x.size() != y.size()) return 0;
  const Eigen::Map<const Eigen::ArrayXd> a(x.data(), static_cast<Eigen::Index>(x.size()));
  const Eigen::Map<const Eigen::ArrayXd> b(y.data(), static_cast<Eigen::Index>(y.size()));
  const Eigen::ArrayXd da = a - a.mean();
  const Eigen::ArrayXd db = b - b.mean();
  const double denominator = std::sqrt((da * da).sum() * (db * db).sum());
  return denominator > 0 ? (da * db).sum() / denominator : 0;
}

std::vector<MetricSummary> summarize(const std::vector<PointResult>& results,
                                     const std::string& group) {
  std::vector<MetricSummary> out;
  for (const ComparedMetric& m : compared_metrics()) {
    MetricSummary s;
    s.metric = m.name;
    s.group = group;
    std::vector<double> measured, simulated;
    double total = 0;
    for (const PointResult& r : results) {
      if (!r.failure.empty()) continue;
      if (r.point->role != group && r.point->category != group) continue;
      const auto e = metric_error(m, r);
      if (!e) continue;
      measured.push_back(r.point->measured.at(m.name));
      simulated.push_back(r.simulated.at(m.name));
      total += *e;
      if (s.points == 0 || *e > s.worst_error) {
        s.worst_error = *e;
        s.worst_point = r.point->name;
      }
      ++s.points;
    }
    if (s.points == 0) continue;
    s.mean_error = total / static_cast<double>(s.points);
    s.pearson_r = pearson(measured, simulated);
    out.push_back(s);
  }
  return out;
}

bool placement_sensitive(const ReferencePoint& point) {
  for (const auto& [metric, values] : point.placement_values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    const double mid = median(values);
    if (!values.empty() && *high >= kMinDramBytes && mid > 0 &&
        100.0 * (*high - *low) / mid > kPlacementSpreadPercent) {
      return true;
    }
  }
  return false;
}

}  // namespace warpsim::validate

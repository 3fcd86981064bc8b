// A validation reference as validate/capture/capture.sh writes it: the points (one kernel launch
// at one size each, with its workload model's name and parameters, category and role) and, for
// each, the Nsight Compute metrics measured on the real GPU.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <string>
#include <vector>

namespace warpsim::validate {

/// One measured point.
struct ReferencePoint {
  size_t index = 0;
  std::string name;      ///< "saxpy/n=16777216"
  std::string kernel;    ///< Workload model name.
  std::string category;  ///< "streaming", "latency", …
  std::string role;      ///< "calibration" or "test".
  std::vector<std::string> params;         ///< "k=v" as the twin was launched.
  std::map<std::string, double> measured;  ///< ncu metric → value (numeric columns only).
  /// For metrics measured in several runs (one_pass.tsv's "metric:label" columns): the least and
  /// the greatest value; `measured` holds their median.
  std::map<std::string, std::pair<double, double>> measured_range;
  /// For DRAM bytes profiled with the point's buffers at several places in memory
  /// (one_pass_placement.tsv): the least and the greatest value over the placements.
  std::map<std::string, std::pair<double, double>> placement_range;
  /// The same DRAM bytes at each placement, in the order of Reference::placement_pads_mb.
  std::map<std::string, std::vector<double>> placement_values;
};

struct Reference {
  std::string dir;
  std::string gpu;  ///< From meta.json.
  std::vector<ReferencePoint> points;
  /// The placements of one_pass_placement.tsv as MiB of padding before the buffers (its column
  /// labels "pad<N>", the twins' TWINS_PAD_MB; the models' pad_mb); empty when its labels are
  /// not of that form or the file is absent.
  std::vector<int64_t> placement_pads_mb;
};

/// The fields of `s` between `sep` characters (a trailing empty field is dropped).
std::vector<std::string> split(const std::string& s, char sep);

/// The median of `values` (0 when empty; the mean of the middle two of an even count).
double median(std::vector<double> values);

/// Loads `dir`/points.tsv, raw.csv and meta.json, and, when present, one_pass.tsv (index, name,
/// then metric columns, one row per point in the same order), whose `dram__bytes_*` columns
/// replace raw.csv's: a one-pass profile, free of the write-backs the capture's replay passes add.
/// Columns named "metric:label" are runs of one profile repeated (capture/repeat_one_pass.sh):
/// the point's value is their median, and `measured_range` keeps their least and greatest.
/// When present, one_pass_placement.tsv (the same layout, one "metric:label" column per placement
/// of the buffers) gives `placement_range`.
/// Throws InputError naming the file and line for a missing file, a malformed line, or a point
/// count or name that differs between the files.
Reference load_reference(const std::string& dir);

}  // namespace warpsim::validate

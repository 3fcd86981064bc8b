#include "validate/thresholds.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <fstream>
#include <sstream>

#include "arch/error.h"

namespace warpsim::validate {
namespace {

class Collector : public google::protobuf::io::ErrorCollector {
 public:
  explicit Collector(std::string path) : path_(std::move(path)) {}
  void AddError(int line, int column, const std::string& message) override {
    if (first_.empty()) {
      first_ = path_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " +
               message;
    }
  }
  const std::string& first() const { return first_; }

 private:
  std::string path_;
  std::string first_;
};

std::string fmt(double v) {
  std::ostringstream s;
  s.precision(4);
  s << v;
  return s.str();
}

}  // namespace

Thresholds load_thresholds(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the thresholds file");
  std::stringstream text;
  text << in.rdbuf();
  Thresholds t;
  Collector errors(path);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text.str(), &t)) {
    throw InputError(errors.first().empty() ? path + ": malformed thresholds" : errors.first());
  }
  return t;
}

std::vector<std::string> check_thresholds(const Thresholds& thresholds,
                                          const std::vector<MetricSummary>& summaries) {
  std::vector<std::string> failures;
  const auto check = [&](const std::string& group,
                         const google::protobuf::Map<std::string, MetricThreshold>& limits) {
    for (const auto& [metric, limit] : limits) {
      const MetricSummary* s = nullptr;
      for (const auto& candidate : summaries) {
        if (candidate.group == group && candidate.metric == metric) s = &candidate;
      }
      const std::string what = group + " " + metric;
      if (s == nullptr) {
        failures.push_back(what + ": no simulated points to compare");
        continue;
      }
      if (limit.has_max_mean_error() && s->mean_error > limit.max_mean_error()) {
        failures.push_back(what + ": mean error " + fmt(s->mean_error) + " > " +
                           fmt(limit.max_mean_error()));
      }
      if (limit.has_min_pearson_r() && s->pearson_r < limit.min_pearson_r()) {
        failures.push_back(what + ": Pearson r " + fmt(s->pearson_r) + " < " +
                           fmt(limit.min_pearson_r()));
      }
      if (limit.has_max_worst_error() && s->worst_error > limit.max_worst_error()) {
        failures.push_back(what + ": worst error " + fmt(s->worst_error) + " (" + s->worst_point +
                           ") > " + fmt(limit.max_worst_error()));
      }
    }
  };
  check("test", thresholds.test());
  check("calibration", thresholds.calibration());
  return failures;
}

}  // namespace warpsim::validate

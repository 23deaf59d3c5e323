#include "reports/compare/verdict.h"

namespace mish {

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "FASTER";
    case Verdict::slower:
      return "SLOWER";
    case Verdict::same:
      return "SAME";
    case Verdict::unsure:
      return "UNSURE";
    case Verdict::untimed:
      return "UNTIMED";
    case Verdict::missing:
      return "MISSING";
    case Verdict::skipped:
      return "SKIPPED";
    case Verdict::broken:
      return "BROKEN";
    case Verdict::added:
      return "NEW";
  }
  return "?";
}

Verdict decide(const RatioInterval& r, double p_value, const DecisionRule& rule) {
  const double up = 1.0 + rule.threshold, down = 1.0 - rule.threshold;
  const bool significant = p_value < rule.alpha;
  if (significant && r.ratio > up && r.low > 1.0) return Verdict::slower;
  if (significant && r.ratio < down && r.high < 1.0) return Verdict::faster;
  const bool interval_inside = r.low >= down && r.high <= up;
  const bool estimate_inside = r.ratio >= down && r.ratio <= up;
  if (interval_inside || (estimate_inside && !significant)) return Verdict::same;
  return Verdict::unsure;
}

bool failing_status(const std::string& status) {
  return status == "mismatch" || status == "error" || status == "implausible";
}

std::optional<Verdict> status_verdict(const std::string& base_status, const std::string& new_status,
                                      bool base_timed, bool new_timed) {
  const bool mismatch_as_before = new_status == "mismatch" && base_status == "mismatch";
  if (failing_status(new_status) && !mismatch_as_before) return Verdict::broken;
  if (new_status == "skipped" && base_status != "skipped") return Verdict::skipped;
  if (!base_timed || !new_timed) return Verdict::untimed;
  return std::nullopt;
}

bool fails(Verdict verdict, bool base_timed) {
  switch (verdict) {
    case Verdict::slower:
    case Verdict::missing:
    case Verdict::skipped:
    case Verdict::broken:
      return true;
    case Verdict::untimed:
      return base_timed;
    default:
      return false;
  }
}

}  // namespace mish

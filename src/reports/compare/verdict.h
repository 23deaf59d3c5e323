// The verdicts of a comparison and the rules that pick them: from the timing (decide) and, before
// that, from the two results' statuses (status_verdict). Which verdicts fail a gate: fails().
// Rules in docs/compare.md.
#pragma once
#include <optional>
#include <string>

#include "reports/compare/significance.h"

namespace mish {

enum class Verdict { faster, slower, same, unsure, untimed, missing, skipped, broken, added };
std::string to_string(Verdict verdict);

struct DecisionRule {
  double threshold = 0.03;  // smallest relative change that counts
  double alpha = 0.01;      // significance level
};

// FASTER, SLOWER, SAME or UNSURE from a ratio's interval and a test's p-value.
Verdict decide(const RatioInterval& ratio, double p_value, const DecisionRule& rule);

// Whether a result's status is a failure of the backend: mismatch, error or implausible.
bool failing_status(const std::string& status);

// The verdict the statuses alone decide, for a result present in both reports, or nullopt when
// the timing decides: BROKEN when NEW failed (a mismatch only if BASE did not mismatch too, as a
// reduced-precision backend does every time), SKIPPED when NEW was skipped and BASE was not,
// UNTIMED when a side has no samples.
std::optional<Verdict> status_verdict(const std::string& base_status, const std::string& new_status,
                                      bool base_timed, bool new_timed);

// Whether a row with this verdict fails the gate (unless its backend is allowed): SLOWER,
// MISSING, SKIPPED, BROKEN, and UNTIMED when BASE had a timing.
bool fails(Verdict verdict, bool base_timed);

}  // namespace mish

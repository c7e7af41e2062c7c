#!/bin/bash
# busy-vs-twin — does the device lab's busy rule (host-bound-check = busy: a figure is
# host-bound when its test kept the guest's vCPU busy 100/1.2 % of its measured window or
# more) mark the same figures as the ram twins did (host-bound-check = twin: the same
# configuration on ram models came within 20 % of the figure)? docs/scenarios.md, "Host-bound
# without a twin".
#
#   bench/busy-vs-twin.sh BUSY.json TWIN.json      (result files or storbench's JSON of them)
#
# BUSY.json: a lab run whose figures carry their vCPU busy share (entries[].vcpu_busy_pct);
# TWIN.json: a run of the same configurations and tests with ram twins (its marks,
# entries[].host_bound with a reference_mean; a figure it has but did not mark its twin did
# not reach). The same file twice for a run with both (bench/seed-shape.sh RAM=1). Prints one
# line a figure found in both (test, configuration, busy share, the twin's ratio to the
# figure where it marked one, each rule's verdict) and how many verdicts agree.
# Exit: 0, 2 on bad usage, 1 when a file cannot be read.
set -u
[ $# = 2 ] || { echo "usage: bench/busy-vs-twin.sh BUSY.json TWIN.json" >&2; exit 2; }
SB=${STORBENCH:-$(cd "$(dirname "$0")/.." && pwd)/storbench}
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
"$SB" show "$1" --format json >"$W/b.json" || exit 1
"$SB" show "$2" --format json >"$W/t.json" || exit 1
jq -n -r --slurpfile bs "$W/b.json" --slurpfile ts "$W/t.json" --argjson limit "$(awk 'BEGIN { print 100 / 1.2 }')" '
  $bs[0] as $b | $ts[0] as $t |
  [ $b.results[] as $r | $r.entries[] | select(.vcpu_busy_pct != null) | . as $e |
    ([ $t.results[] | select(.test == $r.test and .description == $r.description and .unit == $r.unit)
       | .entries[] | select(.identifier == $e.identifier) ] | first) as $w |
    select($w != null) |
    { test: ($r.test + " " + ($r.description | split(" - ")[0])), id: $e.identifier, busy: $e.vcpu_busy_pct,
      twin: ($w.host_bound.reference_mean // null), fig: $w.mean, dir: $r.direction,
      by_twin: ($w.host_bound.reference_mean != null), by_busy: ($e.vcpu_busy_pct >= $limit) } ] as $rows |
  ( $rows[] |
    "\((.test + "                                  ")[0:34]) \((.id + "                                          ")[0:42]) busy \(.busy * 10 | round / 10 | tostring | (. + "      ")[0:6]) %  "
    + (if .twin != null then "twin \((if .dir == "lower" then .fig / .twin else .twin / .fig end) * 100 | round / 100)x  " else "twin -      " end)
    + "twin: \(if .by_twin then "host-bound" else "model" end), busy: \(if .by_busy then "host-bound" else "model" end)"
    + (if .by_twin == .by_busy then "" else "   DIFFER" end) ),
  "\(($rows | map(select(.by_twin == .by_busy)) | length)) of \($rows | length) verdicts agree (busy limit \($limit * 10 | round / 10) %); host-bound by the twin \($rows | map(select(.by_twin)) | length), by the busy share \($rows | map(select(.by_busy)) | length)"'

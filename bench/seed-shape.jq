# seed-shape.jq — the comparison bench/seed-shape.sh prints: a seed page's
# configuration ÷ baseline ratios against storbench's for the same
# configurations, run on modeled devices (issue 29).
#
#   jq -n -r --slurpfile seed SEED.json --slurpfile ours OURS.json --slurpfile ram RAM.json \
#      --argjson map MAP --arg base BASELINE --argjson tests TESTS -f bench/seed-shape.jq
#
# SEED.json: the seed page imported (`storbench import`); OURS.json: storbench's
# figures, with the marks of `host-bound-check` (entries[].host_bound: a ram twin's has a
# reference_mean, the twin's figure; the lab's busy rule's says reference "vcpu busy", the
# entry's vcpu_busy_pct its test's vCPU busy share, shown on each row); RAM.json: the same configurations on
# `ram` models (every device unthrottled) run apart, or {} when not run (then the
# marks in OURS.json decide, and a ram figure is known only where one was marked). MAP: {storbench identifier: seed identifier};
# BASELINE: the storbench identifier the ratios divide by; TESTS: [{label, test,
# seed: regex on the seed result's description, ours: regex on storbench's}].
#
# Rules (docs/scenarios.md, "Seed shape"):
#  - a figure is host-bound when the result file marks it (its ram twin, or in the lab
#    its vCPU busy 100/1.2 % of the window or more), or the same test on the ram configuration reaches
#    within 20 % of it, or does worse (the model's host, the emulated CPU or FUSE,
#    is what bounds it): marked "host-bound" and left out of every count below,
#    with the ratios that divide by it;
#  - an effect is a seed ratio of 1.2 or more, or 1/1.2 or less; it is reproduced
#    when storbench's ratio is on the same side of 1 and within x1.5 of the seed's;
#  - a pair is two configurations of one test (the baseline too); it is ordered as
#    in the seed when storbench's figures compare the same way. Two configurations
#    the seed page gives the same figure (seed 000's HDD and BCache Writethrough
#    random writes, 1.29 both) have no order to reproduce: that pair is left out
#    (counted, it was a miss in every run whatever storbench measured).
def fig($doc; $test; $re; $id):
  [($doc.results // [])[] | select(.test == $test and ((.description // "") | test($re)))
   | .entries[] | select(.identifier == $id) | .mean] | first;
# Host-bound: the ram configuration does no better than 20 % beyond it (a ram figure that
# is worse, as on a loaded host, counts too: the host bounds both).
def hostbound($o; $r; $dir): $o != null and $r != null and $o > 0 and $r > 0 and
  (if $dir == "lower" then ($o / $r) <= 1.2 else ($r / $o) <= 1.2 end);
# The host-bound mark host-bound-check saved with the figure, or null.
def mark($doc; $test; $re; $id):
  [($doc.results // [])[] | select(.test == $test and ((.description // "") | test($re)))
   | .entries[] | select(.identifier == $id) | .host_bound] | first;
# The test's vCPU busy share in the device lab (percent of its measured window), or null.
def busy($doc; $test; $re; $id):
  [($doc.results // [])[] | select(.test == $test and ((.description // "") | test($re)))
   | .entries[] | select(.identifier == $id) | .vcpu_busy_pct] | first;
def dir($doc; $test; $re):
  [($doc.results // [])[] | select(.test == $test and ((.description // "") | test($re))) | .direction] | first;
def fmt: if . == null then "-" else (. * 100 | round / 100 | tostring) end;

($seed[0]) as $S | ($ours[0]) as $O | ($ram[0] // {}) as $R |
[ $tests[] | . as $t |
  ($map | to_entries | map(.key as $k | .value as $sid | {
      id: $k,
      s: fig($S; $t.test; $t.seed; $sid),
      o: fig($O; $t.test; $t.ours; $k),
      m: mark($O; $t.test; $t.ours; $k),
      b: busy($O; $t.test; $t.ours; $k),
      r: fig($R; $t.test; $t.ours; $k)})
   | map(. + {r: (.r // .m.reference_mean)})
   | map(. + {hb: (.m != null or hostbound(.o; .r; dir($O; $t.test; $t.ours)))})) as $rows |
  ($rows | map(select(.id == $base)) | first) as $b |
  { label: $t.label, base: $b,
    rows: [ $rows[] | select(.id != $base) | . as $c |
      (if $c.s != null and $b.s != null and $b.s > 0 then $c.s / $b.s else null end) as $rs |
      (if $c.o != null and $b.o != null and $b.o > 0 then $c.o / $b.o else null end) as $ro |
      ($c.hb or ($b.hb // false)) as $hb |
      ($rs != null and ($rs >= 1.2 or $rs <= (1 / 1.2))) as $effect |
      { id: $c.id, rs: $rs, ro: $ro, o: $c.o, r: $c.r, b: $c.b, by: $c.m.reference, hb: $hb, own: $c.hb, effect: ($effect and ($hb | not) and $ro != null),
        ok: ($effect and ($hb | not) and $ro != null and (($rs - 1) * ($ro - 1) > 0)
             and ([($ro / $rs), ($rs / $ro)] | max) <= 1.5) } ],
    pairs: [ $rows | map(select(.s != null and .o != null and (.hb | not))) as $v
      | range(0; $v | length) as $i | range($i + 1; $v | length) as $j
      | select($v[$i].s != $v[$j].s)
      | (($v[$i].s - $v[$j].s) * ($v[$i].o - $v[$j].o) > 0) ],
    hbn: ($rows | map(select(.hb)) | length) } ] as $per |
( $per[] |
  "\n" + .label + "   (configuration ÷ baseline: seed, storbench; storbench's figure, on ram models)",
  "  baseline \(.base.o | fmt), on ram models \(.base.r | fmt)" + (if .base.hb then ": host-bound" else "" end)
    + (if .base.b != null then "  [vCPU busy \(.base.b | round) %]" else "" end),
  ( .rows[] | "  " + (.id + "                                             ")[0:42] + ((.rs | fmt) + "          ")[0:10]
      + ((.ro | fmt) + "          ")[0:10] + ((.o | fmt) + " / " + (.r | fmt) + "                ")[0:18]
      + (if .rs == null or .ro == null then "no figure"
         elif .hb then (if .own and .by == "vcpu busy" then "host-bound (vCPU busy)" elif .own then "host-bound (ram model within 20 %)"
                        else "host-bound baseline" end)
         elif .effect then (if .ok then "effect reproduced" else "effect NOT reproduced" end)
         else "" end)
      + (if .b != null then "  [vCPU busy \(.b | round) %]" else "" end) ),
  "  pairs ordered as in the seed: \(.pairs | map(select(.)) | length) of \(.pairs | length)"
    + (if .hbn > 0 then "; \(.hbn) figure(s) host-bound, left out" else "" end) ),
( [ $per[].rows[] | select(.effect) ] as $e | [ $per[].pairs[] ] as $p |
  [ $per[].rows[] | select(.hb) ] as $h |
  "\nsummary: effects (>= 20 %) reproduced in direction and within x1.5: \($e | map(select(.ok)) | length) of \($e | length)"
  + (if ($e | length) > 0 then " (\(($e | map(select(.ok)) | length) * 100 / ($e | length) | floor) %)" else "" end),
  "summary: configuration pairs ordered as in the seed: \($p | map(select(.)) | length) of \($p | length)"
  + (if ($p | length) > 0 then " (\(($p | map(select(.)) | length) * 100 / ($p | length) | floor) %)" else "" end),
  "summary: host-bound ratios left out: \($h | length)" )

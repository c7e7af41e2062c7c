# Host-bound figures (docs/devices.md, "Host-bound figures"): a result file whose entry has
# host_bound (the same configuration on device-model = ram came within 20 % of it) shows
# the mark on every page (text, HTML, CSV, JSON), keeps it through a rewrite (merge), and
# compare and the overview leave the figure out; a bad host_bound is refused with one line;
# host-bound-check in [scenario] takes yes or no. No root needed.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

cat >"$T/hb.json" <<'JSON'
{"format": "storbench-result", "schema_version": 1, "title": "Host-bound", "description": "",
 "systems": [
  {"identifier": "Single Disk", "hardware": {}, "software": {}, "storage": {}, "timestamp": "2026-12-02T00:00:00Z", "tool_version": "0.1.0"},
  {"identifier": "2-Disk RAID0", "hardware": {}, "software": {}, "storage": {}, "timestamp": "2026-12-02T00:00:00Z", "tool_version": "0.1.0"}],
 "results": [
  {"test": "fio", "title": "Flexible IO Tester", "version": "", "description": "Type: Random Write", "unit": "MB/s",
   "direction": "higher", "options": {},
   "entries": [
    {"identifier": "Single Disk", "origin": "measured", "mean": 100.0, "sd": 1, "se": 0.5, "decimals": 2, "values": [99, 100, 101]},
    {"identifier": "2-Disk RAID0", "origin": "measured", "mean": 150.0, "sd": 1, "se": 0.5, "decimals": 2, "values": [149, 150, 151],
     "host_bound": {"reference": "device-model = ram", "reference_mean": 160.0}}]},
  {"test": "dd", "title": "dd", "version": "", "description": "Type: write", "unit": "MB/s",
   "direction": "higher", "options": {},
   "entries": [
    {"identifier": "Single Disk", "origin": "measured", "mean": 10.0, "sd": 0.1, "se": 0.05, "decimals": 2, "values": [9.9, 10, 10.1]},
    {"identifier": "2-Disk RAID0", "origin": "measured", "mean": 20.0, "sd": 0.1, "se": 0.05, "decimals": 2, "values": [19.9, 20, 20.1]}]}]}
JSON

check_exit "show text" 0 "$SB" show "$T/hb.json" --width 100
check "text: the host-bound row is marked" grep -q '^2-Disk RAID0 (host-bound) \.' "$T/out"
check "text: the other figures are not" bash -c "[ \$(grep -c 'host-bound' '$T/out') = 1 ]"
check_exit "show html" 0 "$SB" show "$T/hb.json" --format html
check "html: the figure is marked" grep -q '150.00 <tspan class="noisy"> (host-bound)</tspan>' "$T/out"
check "html: the legend says what it means" grep -q 'device-model = ram came within 20 %' "$T/out"
check_exit "show csv" 0 "$SB" show "$T/hb.json" --format csv
check "csv: host_bound and the ram figure" grep -q '^fio,.*,2-Disk RAID0,result,MB/s,higher,150,.*,yes,160$' "$T/out"
check "csv: not host-bound" grep -q '^fio,.*,Single Disk,result,MB/s,higher,100,.*,no,$' "$T/out"
check_exit "show json" 0 "$SB" show "$T/hb.json" --format json
check "json: host_bound kept" bash -c "jq -e '.results[0].entries[1].host_bound.reference_mean == 160 and (.results[0].entries[0] | has(\"host_bound\") | not)' '$T/out' >/dev/null"
check_exit "merge keeps it" 0 "$SB" merge "$T/merged.json" "$T/hb.json"
check "merged: host_bound kept" bash -c "jq -e '.results[] | select(.test == \"fio\") | .entries[] | select(.identifier == \"2-Disk RAID0\") | .host_bound.reference_mean == 160' '$T/merged.json' >/dev/null"
check_exit "compare" 0 "$SB" compare "$T/hb.json"
check "compare leaves the host-bound figure out" grep -q '^2-Disk RAID0 \.*  *150.00  (host-bound: left out)' "$T/out"
check "compare: the geometric mean is over the dd figure alone" grep -q '2-Disk RAID0.*over 1 test' "$T/out"

sed 's/"reference_mean": 160.0/"reference_mean": "fast"/' "$T/hb.json" >"$T/bad.json"
check_exit "a bad host_bound is refused" 1 "$SB" show "$T/bad.json"
check_one_line "one line naming the field" "host_bound"

# The lab's mark (host-bound-check = busy): no twin's figure, the vCPU's busy share beside it.
sed 's/"host_bound": {"reference": "device-model = ram", "reference_mean": 160.0}/"vcpu_busy_pct": 97.5, "host_bound": {"reference": "vcpu busy"}/;
     s/"values": \[99, 100, 101\]}/"values": [99, 100, 101], "vcpu_busy_pct": 40.25}/' "$T/hb.json" >"$T/busy.json"
check_exit "show json (busy mark)" 0 "$SB" show "$T/busy.json" --format json
check "json: the busy mark and both shares kept" bash -c "jq -e '.results[0].entries[1].host_bound.reference == \"vcpu busy\" and .results[0].entries[1].vcpu_busy_pct == 97.5 and .results[0].entries[0].vcpu_busy_pct == 40.25 and (.results[0].entries[0] | has(\"host_bound\") | not)' '$T/out' >/dev/null"
check_exit "show csv (busy mark)" 0 "$SB" show "$T/busy.json" --format csv
check "csv: host-bound with no twin's figure" grep -q '^fio,.*,2-Disk RAID0,result,MB/s,higher,150,.*,yes,$' "$T/out"
check_exit "show text (busy mark)" 0 "$SB" show "$T/busy.json" --width 100
check "text: the busy-marked row is marked" grep -q '^2-Disk RAID0 (host-bound) \.' "$T/out"
sed 's/"vcpu_busy_pct": 97.5, //' "$T/busy.json" >"$T/bad.json"
check_exit "a busy mark without the share is refused" 1 "$SB" show "$T/bad.json"
check_one_line "one line naming the field" "host_bound"
sed 's/"vcpu_busy_pct": 40.25/"vcpu_busy_pct": 140/' "$T/busy.json" >"$T/bad.json"
check_exit "a share above 100 % is refused" 1 "$SB" show "$T/bad.json"
check_one_line "one line naming the field" "vcpu_busy_pct"
printf '[scenario]\nhost-bound-check = busy\n[a]\nfilesystem = ext4\ndevice-model = ssd-850evo\n' >"$T/s.ini"
check_exit "host-bound-check = busy is accepted by check" 0 "$SB" scenario check "$T/s.ini"
check_exit "host-bound-check = busy natively is refused" 2 "$SB" scenario run "$T/s.ini" -s dd --result "$T/n.json" --images "$T"
check_one_line "one line naming it" "host-bound-check = busy"
check "nothing saved" test ! -e "$T/n.json"

printf '[scenario]\nhost-bound-check = maybe\n[a]\nfilesystem = ext4\n' >"$T/s.ini"
check_exit "host-bound-check takes yes, twin, busy or no" 2 "$SB" scenario check "$T/s.ini"
check_one_line "one line" "host-bound-check 'maybe': yes, twin, busy or no"
printf '[scenario]\nhost-bound-check = yes\n[a]\nfilesystem = ext4\ndevice-model = ssd-850evo\n' >"$T/s.ini"
check_exit "host-bound-check = yes is accepted" 0 "$SB" scenario check "$T/s.ini"
finish

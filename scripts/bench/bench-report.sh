#!/bin/bash
# Turn the raw results of scripts/bench/bench.sh into the cover letter's table.
#
# usage: scripts/bench/bench-report.sh OUTDIR
#
# Reads OUTDIR/meta.txt and OUTDIR/raw/*/result.txt (key=value lines the
# guest wrote; a run counts only if it ended with exit=0, and run 0 is the
# warm-up, never counted).  Writes, and prints the first:
#   OUTDIR/bench.md    the tables, in Markdown
#   OUTDIR/bench.json  the same numbers, and every run's bandwidth
#   OUTDIR/bench.png   bandwidth per workload and kernel (median, with error
#                      bars from the smallest to the largest run), if
#                      gnuplot is installed; EX_MISSING at the end if not
#   OUTDIR/stats.tsv   the intermediate numbers the three are made from
# Bandwidth is fio's read + write bandwidth in MiB/s.  "var" is the
# coefficient of variation (sample standard deviation / mean) over the
# runs; "diff" is the change of the median from base's median.
set -uo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

[ $# -eq 1 ] || die $EX_USAGE "usage: $0 OUTDIR"
out=$1
{ [ -f "$out/meta.txt" ] && [ -d "$out/raw" ]; } || die $EX_MISSING "no benchmark results in $out"

# One line per measurement: KERNEL WORKLOAD RUN KEY VALUE.
for d in "$out"/raw/*/; do
	name=$(basename "$d")
	[ -f "$d/result.txt" ] || continue
	IFS=- read -r k w i <<< "$name"
	tr -d '\r' < "$d/result.txt" |
		awk -F= -v k="$k" -v w="$w" -v i="${i:-0}" 'NF == 2 { print k, w, i, $1, $2 }'
done > "$out/raw.txt"

# Statistics, one line each:
#   fio KERNEL WORKLOAD N FAILED MEDIAN MEAN SD COV% MIN MAX RUN1,RUN2,...
#   mem KERNEL NSLABS_BOOT NSLABS_AFTER_MAX MEMTOTAL_KIB MEMAVAIL_KIB HIWATER_MAX
#   (HIWATER_MAX -1: the kernel has no io_tlb_used_hiwater, as base and v7)
#   dma KERNEL THREADS GRANULE MAP_US MAP_SD UNMAP_US UNMAP_SD
# (mem: from the counted fio runs, medians for the meminfo lines)
awk '
	function median(s,   n, a, i, j, t) {
		n = split(s, a, ",")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	# (two statements: mawk creates arr[key] before it tests "key in arr")
	function add(arr, key, x) { if (key in arr) arr[key] = arr[key] "," x; else arr[key] = x }
	{ v[$1 " " $2 " " $3 " " $4] = $5; run[$1 " " $2 " " $3] = 1 }
	END {
		for (r in run) {
			split(r, f, " "); k = f[1]; w = f[2]; i = f[3]
			if (w == "dma") continue
			if (i == 0) continue
			kw = k " " w
			wl[w] = 1; kern[k] = 1
			if (v[r " exit"] != "0" || !((r " read_kib_s") in v)) { failed[kw]++; continue }
			bw = (v[r " read_kib_s"] + v[r " write_kib_s"]) / 1024
			add(bws, kw, sprintf("%.3f", bw))
			if (v[r " nslabs_boot"] != "") nsb[k] = v[r " nslabs_boot"]
			if (v[r " nslabs_after"] + 0 > nsa[k] + 0) nsa[k] = v[r " nslabs_after"]
			if ((r " hiwater") in v && (!(k in used) || v[r " hiwater"] + 0 > used[k] + 0)) used[k] = v[r " hiwater"]
			add(mt, k, v[r " memtotal_kib"]); add(ma, k, v[r " memavail_kib"])
		}
		for (k in kern) for (w in wl) {
			kw = k " " w
			n = split(bws[kw], a, ",")
			if (!(kw in bws)) n = 0
			sum = 0; mn = ""; mx = ""
			for (i = 1; i <= n; i++) {
				sum += a[i]
				if (mn == "" || a[i] + 0 < mn + 0) mn = a[i]
				if (mx == "" || a[i] + 0 > mx + 0) mx = a[i]
			}
			mean = n ? sum / n : 0; ss = 0
			for (i = 1; i <= n; i++) ss += (a[i] - mean) ^ 2
			sd = n > 1 ? sqrt(ss / (n - 1)) : 0
			printf "fio %s %s %d %d %.3f %.3f %.3f %.2f %s %s %s\n", k, w, n, failed[kw] + 0,
				n ? median(bws[kw]) : 0, mean, sd, mean ? 100 * sd / mean : 0,
				n ? mn : 0, n ? mx : 0, n ? bws[kw] : "-"
		}
		for (k in kern)
			printf "mem %s %s %s %d %d %s\n", k, nsb[k] == "" ? -1 : nsb[k], nsa[k] == "" ? -1 : nsa[k],
				(k in mt) ? median(mt[k]) : -1, (k in ma) ? median(ma[k]) : -1, (k in used) ? used[k] : -1
		for (r in run) {
			split(r, f, " "); k = f[1]
			if (f[2] != "dma" || v[r " exit"] != "0") continue
			for (t = 1; t <= 256; t++) for (g = 1; g <= 16; g += 15) {
				c = "_t" t "_g" g
				if (!((r " map_us" c) in v)) continue
				printf "dma %s %d %d %s %s %s %s\n", k, t, g, v[r " map_us" c], v[r " map_sd" c],
					v[r " unmap_us" c], v[r " unmap_sd" c]
			}
		}
	}' "$out/raw.txt" | sort -k1,1 -k2,2 -k3,3 > "$out/stats.tsv"

get() { sed -n "s/^$1=//p" "$out/meta.txt"; }
kernels="base default growing"
workloads=$(get workloads)

# --- Markdown ---
{
	echo "# Dynamic SWIOTLB benchmark: base vs. patched ($(get series) series)"
	echo
	echo "$(get runs) runs of $(get runtime) s per kernel and workload (warm-up discarded:" \
		"$([ "$(get warmup)" = 1 ] && echo yes || echo no)), a fresh VM per run, interleaved;" \
		"$(get qemu), $(get qemu_args), $(get mem) MiB; $(get date)."
	echo "Kernels: base = $(get base_label), $(get cmdline_base);" \
		"default = $(get default_label | grep . || echo patched), $(get cmdline_default);" \
		"growing = $(get growing_label | grep . || echo patched), $(get cmdline_growing)."
	echo
	echo "## fio read+write bandwidth, in the cover letter's form"
	echo
	echo "| workload | base var | default var | default diff | growing var | growing diff |"
	echo "|---|---:|---:|---:|---:|---:|"
	for w in $workloads; do
		awk -v w="$w" '
			$1 == "fio" && $3 == w { med[$2] = $6; cov[$2] = $9; n[$2] = $4 }
			function diff(k) {
				if (!n[k] || !n["base"] || med["base"] == 0) return "n/a"
				d = 100 * (med[k] - med["base"]) / med["base"]
				return (d > -0.1 && d < 0.1) ? "<0.1%" : sprintf("%+.1f%%", d)
			}
			function var(k) { return n[k] > 1 ? sprintf("%.2f%%", cov[k]) : "n/a" }
			END { printf "| %s | %s | %s | %s | %s | %s |\n", w, var("base"), var("default"),
				diff("default"), var("growing"), diff("growing") }' "$out/stats.tsv"
	done
	echo
	echo "## fio bandwidth, MiB/s (median, min..max over the counted runs)"
	echo
	echo "| workload | kernel | runs | failed | median | mean | min | max | var |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for w in $workloads; do for k in $kernels; do
		awk -v w="$w" -v k="$k" '$1 == "fio" && $2 == k && $3 == w {
			printf "| %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f%% |\n", w, k, $4, $5, $6, $7, $10, $11, $9 }' \
			"$out/stats.tsv"
	done; done
	echo
	echo "## Memory"
	echo
	echo "swiotlb size = io_tlb_nslabs x 2 KiB; after = the largest after any run;"
	echo "MemTotal and MemAvailable after boot (median); hiwater = the largest"
	echo "io_tlb_used_hiwater after a run (above 0: the I/O was bounced; n/a: the kernel"
	echo "has no such counter, as the base kernel and the v7 series)."
	echo
	echo "| kernel | swiotlb at boot | swiotlb after | MemTotal | MemAvailable | hiwater |"
	echo "|---|---:|---:|---:|---:|---:|"
	for k in $kernels; do
		awk -v k="$k" '$1 == "mem" && $2 == k {
			printf "| %s | %.1f MiB (%d slots) | %.1f MiB (%d slots) | %.1f MiB | %.1f MiB | %s |\n",
				k, $3 * 2 / 1024, $3, $4 * 2 / 1024, $4, $5 / 1024, $6 / 1024,
				$7 < 0 ? "n/a" : $7 " slots" }' "$out/stats.tsv"
	done
	echo
	echo "## dma_map_benchmark (edu device, $(get dma_seconds) s per case), microseconds"
	echo
	echo "| kernel | threads | granule (pages) | map avg | map stddev | unmap avg | unmap stddev |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for k in $kernels; do
		awk -v k="$k" '$1 == "dma" && $2 == k {
			printf "| %s | %d | %d | %s | %s | %s | %s |\n", k, $3, $4, $5, $6, $7, $8 }' "$out/stats.tsv"
	done
} > "$out/bench.md"

# --- JSON ---
{
	printf '{\n  "meta": {'
	sep=''
	while IFS='=' read -r key val; do
		printf '%s\n    "%s": "%s"' "$sep" "$key" "${val//\"/\\\"}"
		sep=,
	done < "$out/meta.txt"
	printf '\n  },\n'
	awk '
		BEGIN { nf = 0; nm = 0; nd = 0 }
		$1 == "fio" { f[++nf] = sprintf("    {\"kernel\": \"%s\", \"workload\": \"%s\", \"runs\": %d, \"failed\": %d, " \
			"\"median_mib_s\": %s, \"mean_mib_s\": %s, \"sd_mib_s\": %s, \"cov_pct\": %s, \"min_mib_s\": %s, " \
			"\"max_mib_s\": %s, \"each_mib_s\": [%s]}", $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 == "-" ? "" : $12)
			med[$2 " " $3] = $6; n[$2 " " $3] = $4 }
		$1 == "mem" { m[++nm] = sprintf("    {\"kernel\": \"%s\", \"nslabs_boot\": %d, \"nslabs_after_max\": %d, " \
			"\"swiotlb_boot_kib\": %d, \"swiotlb_after_kib\": %d, \"memtotal_kib\": %d, \"memavail_kib\": %d, " \
			"\"hiwater_max\": %s}", $2, $3, $4, $3 * 2, $4 * 2, $5, $6, $7 < 0 ? "null" : $7) }
		$1 == "dma" { d[++nd] = sprintf("    {\"kernel\": \"%s\", \"threads\": %d, \"granule\": %d, " \
			"\"map_us\": %s, \"map_sd_us\": %s, \"unmap_us\": %s, \"unmap_sd_us\": %s}", $2, $3, $4, $5, $6, $7, $8) }
		END {
			print "  \"fio\": ["
			for (i = 1; i <= nf; i++) print f[i] (i < nf ? "," : "")
			print "  ],"
			print "  \"diff_pct\": ["
			nd2 = 0
			for (kw in med) {
				split(kw, a, " ")
				if (a[1] == "base" || !n[kw] || !n["base " a[2]] || med["base " a[2]] == 0) continue
				o[++nd2] = sprintf("    {\"kernel\": \"%s\", \"workload\": \"%s\", \"diff_pct\": %.2f}", a[1], a[2],
					100 * (med[kw] - med["base " a[2]]) / med["base " a[2]])
			}
			for (i = 1; i <= nd2; i++) print o[i] (i < nd2 ? "," : "")
			print "  ],"
			print "  \"memory\": ["
			for (i = 1; i <= nm; i++) print m[i] (i < nm ? "," : "")
			print "  ],"
			print "  \"dma_map_benchmark\": ["
			for (i = 1; i <= nd; i++) print d[i] (i < nd ? "," : "")
			print "  ]"
			print "}"
		}' "$out/stats.tsv"
} > "$out/bench.json"

cat "$out/bench.md"
echo
echo "bench-report.sh: wrote $out/bench.md, bench.json"

# --- chart ---
if ! command -v gnuplot > /dev/null; then
	info "gnuplot not found (apt-get install gnuplot-nox): no chart"
	exit $EX_MISSING
fi
for w in $workloads; do
	echo -n "$w"
	for k in $kernels; do
		awk -v w="$w" -v k="$k" '$1 == "fio" && $2 == k && $3 == w { printf " %s %s %s", $6, $10, $11 }' "$out/stats.tsv"
	done
	echo
done > "$out/chart.dat"
gnuplot <<EOF || die $EX_TESTFAIL "gnuplot failed"
set terminal pngcairo size 800,500
set output "$out/bench.png"
set title "fio read+write bandwidth through the swiotlb ($(get runs) runs, median, min..max)"
set ylabel "MiB/s"
set yrange [0:*]
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set key top left
plot "$out/chart.dat" using 2:3:4:xtic(1) title "base", \
	'' using 5:6:7 title "default", \
	'' using 8:9:10 title "growing (swiotlb=512)"
EOF
echo "bench-report.sh: wrote $out/bench.png"

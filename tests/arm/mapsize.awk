# SPDX-License-Identifier: Apache-2.0
# tests/arm/mapsize.awk - where the bytes of a Cortex-M image go, from the
# GNU ld map file of a runner built by tests/arm/lib.sh.
#
#   awk -v prefix=net -f mapsize.awk runner.map
#
# Every input section is charged to a category by the object it comes from:
#   gen      the generated <prefix>.c (and any other <prefix>_*.c but the weights)
#   weights  the generated <prefix>_weights.c
#   rt       the runtime (kernel) sources the compiler wrote next to them
#   harness  the test runner, start-up code and semihosting (harness_*.o)
#   lib      the C library and libgcc (lib*.a members)
#   fill     alignment padding
# and to flash (.vectors .text .weights .ARM.exidx, and .data's initial
# values) or RAM (.data .bss; .workspace and .stack are reported apart).
# Prints "<flash|ram>_<category> <bytes>" lines, "workspace", "stack", and
# "needs_<category> <symbol>" for every C library member a category pulls
# in (from the map's archive-member list).
function hex(s,    n, i, c) {
  s = tolower(s); sub(/^0x/, "", s); n = 0
  for (i = 1; i <= length(s); i++) {
    c = index("0123456789abcdef", substr(s, i, 1)) - 1
    n = n * 16 + c
  }
  return n
}
function category(file,    base) {
  if (file ~ /\.a\(/) return "lib"
  if (file == "") return "fill"
  base = file; sub(/.*\//, "", base)
  if (base ~ /^harness_/) return "harness"
  if (base == prefix "_weights.o") return "weights"
  if (base == prefix ".o" || index(base, prefix "_") == 1) return "gen"
  if (base ~ /^lib/ || file ~ /linker stubs/) return "lib"
  return "rt"
}
function charge(size, file,    cat) {
  if (size == 0) return
  cat = category(file)
  if (out == ".workspace") { workspace += size; return }
  if (out == ".stack") { stack += size; return }
  if (out == ".bss" || out == ".noinit") { ram[cat] += size; return }
  if (out == ".data") { ram[cat] += size; flash[cat] += size; return }
  if (out ~ /^\.(vectors|text|weights|ARM\.exidx|rodata)/) flash[cat] += size
}
BEGIN { if (prefix == "") prefix = "net" }
/^Archive member included/ { members = 1; next }
/^(Discarded input sections|Memory Configuration)/ { members = 0 }
members && /^[^ ]/ { member = $1; next }
members && /^ +[^ ].*\(.*\)$/ {
  who = $1; sym = $NF; gsub(/[()]/, "", sym)
  base = member; sub(/.*\(/, "", base); sub(/\)$/, "", base)
  c = category(who)
  if (!((c, sym) in seen)) { seen[c, sym] = 1; needs[c] = needs[c] " " sym }
  next
}
/^Linker script and memory map/ { map = 1; next }
!map { next }
/^\.[^ ]/ { out = $1; pending = 0; next }
/^ \*fill\*/ { if ($3 ~ /^0x/) charge(hex($3), ""); next }
/^ [.A-Za-z_]/ {
  if (NF >= 4 && $2 ~ /^0x/ && $3 ~ /^0x/) { charge(hex($3), $4); pending = 0 }
  else if (NF == 1) pending = 1
  next
}
pending && /^  +0x/ {
  if (NF >= 3 && $2 ~ /^0x/) charge(hex($2), $3)
  pending = 0
  next
}
END {
  n = split("gen weights rt harness lib fill", cats, " ")
  for (i = 1; i <= n; i++) {
    printf "flash_%s %d\n", cats[i], flash[cats[i]]
    printf "ram_%s %d\n", cats[i], ram[cats[i]]
  }
  printf "workspace %d\nstack %d\n", workspace, stack
  for (c in needs) printf "needs_%s%s\n", c, needs[c]
}

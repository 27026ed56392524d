# The machine's busy CPU time so far, in microseconds, from /proc/stat (user, nice, system, irq
# and softirq of all cores; not idle, iowait or steal). Read before and after a run: the
# difference over its requests is the machine's CPU a request, whoever spent it (server,
# client, database, kernel).
busy_us() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { print int(($2 + $3 + $4 + $7 + $8) * 1000000 / hz) }' /proc/stat
}

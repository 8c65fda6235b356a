# The median of the numbers on stdin (one per line) with a 95% percentile-
# bootstrap interval (2000 resamples, seeded: the same input, the same
# interval), for the bench-* scripts' paired figures. Prints
# "n median lo hi min max", or "n nan nan nan nan nan" under 3 numbers.
function med(x, n,   i, j, t, y) {
	for (i = 1; i <= n; i++) y[i] = x[i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && y[j - 1] > y[j]; j--) { t = y[j]; y[j] = y[j - 1]; y[j - 1] = t }
	return n % 2 ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2
}
NF { n++; v[n] = $1 + 0 }
END {
	if (n < 3) { printf "%d nan nan nan nan nan\n", n; exit }
	srand(1)
	for (b = 1; b <= 2000; b++) {
		for (i = 1; i <= n; i++) s[i] = v[int(rand() * n) + 1]
		m[b] = med(s, n)
	}
	for (i = 2; i <= 2000; i++) for (j = i; j > 1 && m[j - 1] > m[j]; j--) { t = m[j]; m[j] = m[j - 1]; m[j - 1] = t }
	mn = v[1]; mx = v[1]
	for (i = 1; i <= n; i++) { if (v[i] < mn) mn = v[i]; if (v[i] > mx) mx = v[i] }
	printf "%d %.6g %.6g %.6g %.6g %.6g\n", n, med(v, n), m[50], m[1951], mn, mx
}

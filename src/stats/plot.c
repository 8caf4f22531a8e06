#include "stats/plot.h"

#include <math.h>
#include <string.h>

#define W 960
#define H 600
#define ML 90		/* margins: left, right, top, bottom */
#define MR 300
#define MT 50
#define MB 70
#define YMIN 1e-5

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf",
};

static void escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static double px(double ms, double lo, double hi)
{
	return ML + (log10(ms) - lo) / (hi - lo) * (W - ML - MR);
}

static double py(double frac)
{
	double lo = log10(YMIN);

	if (frac < YMIN)
		frac = YMIN;
	return MT + (0.0 - log10(frac)) / (0.0 - lo) * (H - MT - MB);
}

int plot_exceedance_svg(FILE *out, const char *title, const struct plot_series *s, unsigned n,
			const char *const *notes, unsigned nnotes)
{
	double min_ms = INFINITY, max_ms = 0, lo, hi;
	unsigned i, k;
	int d, row_h, legend_end;

	for (i = 0; i < n; i++) {
		if (!s[i].h->sum.n)
			continue;
		if (s[i].h->sum.min / 1e6 < min_ms)
			min_ms = s[i].h->sum.min / 1e6;
		if (s[i].h->sum.max / 1e6 > max_ms)
			max_ms = s[i].h->sum.max / 1e6;
	}
	if (max_ms <= 0)
		return -1;
	if (min_ms < 1e-3)
		min_ms = 1e-3;
	lo = floor(log10(min_ms));
	hi = ceil(log10(max_ms));
	if (hi <= lo)
		hi = lo + 1;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n", W, H, W, H);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">", ML);
	escaped(out, title);
	fprintf(out, "</text>\n");
	/* Grid and ticks: decades on both axes. */
	for (d = (int)lo; d <= (int)hi; d++) {
		double x = px(pow(10, d), lo, hi);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			x, MT, x, H - MB);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x,
			H - MB + 18, pow(10, d));
	}
	for (d = 0; d >= -5; d--) {
		double y = py(pow(10, d));

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			ML, y, W - MR, y);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ML - 8,
			y + 4, pow(10, d));
	}
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"black\"/>\n", ML, MT, W - ML - MR, H - MT - MB);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">latency (ms)</text>\n",
		ML + (W - ML - MR) / 2, H - 25);
	fprintf(out, "<text transform=\"translate(24,%d) rotate(-90)\" text-anchor=\"middle\">"
		"fraction of I/Os slower (1 - CDF)</text>\n", MT + (H - MT - MB) / 2);
	/* Legend rows shrink so that many series still fit beside the plot. */
	row_h = n + nnotes ? (H - MT - 20) / (int)(n + nnotes) : 22;
	if (row_h > 22)
		row_h = 22;
	if (row_h < 8)
		row_h = 8;
	/* One step line per series: at each bucket, the share above it. */
	for (i = 0; i < n; i++) {
		const struct hist *h = s[i].h;
		unsigned top = hist_top(h);
		uint64_t above = h->sum.n;
		const char *c = colours[i % (sizeof(colours) / sizeof(colours[0]))];
		double last_y = py(1.0);
		bool started = false;

		if (!h->sum.n)
			continue;
		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
		for (k = 0; k < top; k++) {
			double ms, x, y;

			if (!h->count[k])
				continue;
			ms = hist_bucket_value(k) / 1e6;
			if (ms < pow(10, lo))
				ms = pow(10, lo);
			x = px(ms, lo, hi);
			above -= h->count[k];
			y = py((double)above / (double)h->sum.n);
			fprintf(out, "%s%.1f,%.1f %.1f,%.1f", started ? " " : "", x, last_y, x, y);
			started = true;
			last_y = y;
			if (!above)
				break;
		}
		fprintf(out, "\"/>\n");
		/* Legend. */
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"3\"/>\n", W - MR + 20, MT + 10 + row_h * (int)i, W - MR + 45,
			MT + 10 + row_h * (int)i, c);
		fprintf(out, "<text x=\"%d\" y=\"%d\"%s>", W - MR + 52, MT + 14 + row_h * (int)i,
			row_h < 16 ? " font-size=\"9\"" : "");
		escaped(out, s[i].label);
		fprintf(out, "</text>\n");
	}
	/* Notes under the legend: what each variant letter stands for. */
	legend_end = MT + 14 + row_h * (int)n + 8;
	for (i = 0; i < nnotes; i++) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#444\" xml:space=\"preserve\"%s>", W - MR + 20,
			legend_end + row_h * (int)i, row_h < 16 ? " font-size=\"9\"" : " font-size=\"12\"");
		escaped(out, notes[i]);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "</svg>\n");
	return 0;
}

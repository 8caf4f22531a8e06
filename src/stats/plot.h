/*
 * plot — a latency exceedance plot as a self-contained SVG: for each
 * series, the fraction of I/Os slower than x (1 − CDF), both axes
 * logarithmic (1, 0.1 … 1e-5 against milliseconds), with labelled axes,
 * decade grid lines and a legend. Readable in any browser, no dependency.
 */
#ifndef NCQSIM_PLOT_H
#define NCQSIM_PLOT_H

#include <stdio.h>

#include "stats/hist.h"

struct plot_series {
	const char *label;
	const struct hist *h;
};

/*
 * Write the plot; notes (may be none) are lines printed under the legend.
 * Returns 0, or -1 when there is nothing to draw.
 */
int plot_exceedance_svg(FILE *out, const char *title, const struct plot_series *s,
			unsigned n, const char *const *notes, unsigned nnotes);

#endif

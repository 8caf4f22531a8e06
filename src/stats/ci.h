/*
 * ci — confidence intervals over independent repetitions: the mean and the
 * 95 % half-width t(0.975, n−1) · s / √n (Student's t), which is what
 * `--repeat N` reports for each percentile.
 */
#ifndef NCQSIM_CI_H
#define NCQSIM_CI_H

/* The two-sided 95 % quantile of Student's t with df degrees of freedom. */
double ci_t975(unsigned df);
/*
 * Mean and 95 % half-width of n values (the half-width is 0 for n < 2).
 * Also the sample standard deviation when sd is not NULL.
 */
void ci_mean(const double *v, unsigned n, double *mean, double *half_width, double *sd);

#endif

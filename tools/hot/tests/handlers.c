// SPDX-License-Identifier: GPL-2.0
/*
 * The test guest's handlers, built without the sanitizers: each counts
 * one report.
 */
unsigned int reports;

void __ubsan_handle_add_overflow(void *data, void *a, void *b)
{
	reports++;
}

void __ubsan_handle_sub_overflow(void *data, void *a, void *b)
{
	reports++;
}

void __ubsan_handle_mul_overflow(void *data, void *a, void *b)
{
	reports++;
}

void __ubsan_handle_negate_overflow(void *data, void *a)
{
	reports++;
}

void __ubsan_handle_implicit_conversion(void *data, void *a, void *b)
{
	reports++;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The census test's handlers and entry point: the census reads the calls,
 * never runs them.
 */
void __ubsan_handle_add_overflow(void *d, void *a, void *b)
{
}

void __ubsan_handle_sub_overflow(void *d, void *a, void *b)
{
}

void __ubsan_handle_mul_overflow(void *d, void *a, void *b)
{
}

void __ubsan_handle_negate_overflow(void *d, void *a)
{
}

void __ubsan_handle_implicit_conversion(void *d, void *a, void *b)
{
}

void _start(void)
{
	for (;;)
		;
}

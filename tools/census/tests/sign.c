// SPDX-License-Identifier: GPL-2.0
/*
 * The census test's sign-change kinds: built with
 * -fsanitize=implicit-conversion, which the kernel does not use, to cover
 * the conversion kinds 3 and 4 of the handler.
 */
volatile unsigned int sink_u;
volatile signed char sink_sc;

__attribute__((noinline)) void sign_change(int v)
{
	sink_u = v;
}

__attribute__((noinline)) void trunc_sign(unsigned int v)
{
	sink_sc = v;
}

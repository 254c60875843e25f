/* SPDX-License-Identifier: Apache-2.0 */
/*
 * startup.c - the smallest start-up code a Cortex-M needs (ARMv7-M and
 * ARMv8-M Mainline: M3, M4, M7, M33, M55).
 *
 * What it does, in order, from the reset vector:
 *   1. enables the floating-point unit when the code is built for one
 *      (CPACR: full access to CP10 and CP11), before any FP instruction;
 *   2. copies .data from its load address in flash to RAM;
 *   3. zeroes .bss (the workspace and the stack are NOLOAD and are not
 *      touched: nothing in tinyaot's generated code needs them zeroed);
 *   4. calls main(); if main returns, sleeps forever.
 *
 * The symbols come from the linker script (sections.ld).  Every exception
 * goes to a weak handler that spins; a firmware (or the test runner)
 * overrides HardFault_Handler and friends with its own.
 *
 * No C library is needed: the copy and zero loops are written out here.
 */
#include <stdint.h>

extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_top[];

int main(void);
void Reset_Handler(void);

/* Exceptions nobody handles end here. */
void Default_Handler(void) {
  for (;;) {
  }
}

#define WEAK_ALIAS __attribute__((weak, alias("Default_Handler")))
void NMI_Handler(void) WEAK_ALIAS;
void HardFault_Handler(void) WEAK_ALIAS;
void MemManage_Handler(void) WEAK_ALIAS;
void BusFault_Handler(void) WEAK_ALIAS;
void UsageFault_Handler(void) WEAK_ALIAS;
void SecureFault_Handler(void) WEAK_ALIAS;
void SVC_Handler(void) WEAK_ALIAS;
void DebugMon_Handler(void) WEAK_ALIAS;
void PendSV_Handler(void) WEAK_ALIAS;
void SysTick_Handler(void) WEAK_ALIAS;

/* The vector table: initial stack pointer, then the system exceptions.
 * Device interrupts would follow; nothing here uses them. */
typedef void (*vector)(void);
__attribute__((section(".vectors"), used)) static const vector vectors[16] = {
    (vector)(uintptr_t)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    SecureFault_Handler, /* ARMv8-M only; reserved on ARMv7-M */
    0,
    0,
    0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
};

void Reset_Handler(void) {
#if defined(__ARM_FP)
  /* CPACR (0xE000ED88): CP10 and CP11 full access. */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  /* volatile: keeps the compiler from turning the loops into calls to
   * memcpy/memset, so start-up needs no C library. */
  const uint32_t *src = __data_load;
  for (volatile uint32_t *dst = __data_start; dst < __data_end;)
    *dst++ = *src++;
  for (volatile uint32_t *dst = __bss_start; dst < __bss_end;)
    *dst++ = 0;
  main();
  for (;;)
    __asm__ volatile("wfi");
}

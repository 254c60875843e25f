/* SPDX-License-Identifier: Apache-2.0 */
/* tests/arm/cycles/micro.S - hand-made micro-benchmarks for the
 * Cortex-M4 cycle estimate (tools/m4_cycles.c, tests/arm/test_arm_cycles.sh).
 *
 * A bare image for QEMU's mps2-an386: the vector table, then reset calls
 * one benchmark function chosen at build time (-DBENCH=bench_xxx) and
 * exits through semihosting.  Each benchmark's cycle count is counted by
 * hand below from the Cortex-M4 Technical Reference Manual's timings
 * (zero wait states), under the estimate's documented assumptions
 * (doc/cortex-m.md, "Estimated Cortex-M4 cycles"): a taken branch costs
 * 1 + P with P = 1, or P = 2 when its target is a 32-bit instruction at
 * an address that is 2 mod 4; a load into the PC refills in 3; SDIV and
 * UDIV take their worst case, 12.  Counted: from the benchmark's first
 * instruction to its return (the BX LR or POP {..., PC} included). */
        .syntax unified
        .thumb
        .text
        .word   0x20010000              /* initial SP */
        .word   reset + 1
        .thumb_func
        .global reset
reset:
        ldr     r0, =buf
        bl      BENCH
        movs    r0, #0x18               /* SYS_EXIT ... */
        ldr     r1, =0x20026            /* ... ADP_Stopped_ApplicationExit */
        bkpt    0xab
        b       .
        .ltorg

/* Straight-line code: ALU ops, multiplies, a divide, push and pop.
 *   push {r4-r6, lr}        1 + N = 5
 *   movs r1, #3             1
 *   adds r2, r1, #2         1
 *   add.w r3, r2, r1, lsl 2 1
 *   mul r4, r3, r2          1
 *   mla r4, r3, r2, r4      1
 *   smull r5, r6, r4, r3    1
 *   sdiv r5, r4, r1         12 (2..12, the worst case assumed)
 *   eor.w r6, r5, r4        1
 *   pop {r4-r6, pc}         1 + N + P = 1 + 4 + 3 = 8
 * total 32 cycles, 10 instructions. */
        .align  2
        .thumb_func
        .global bench_straight
bench_straight:
        push    {r4, r5, r6, lr}
        movs    r1, #3
        adds    r2, r1, #2
        add.w   r3, r2, r1, lsl #2
        mul     r4, r3, r2
        mla     r4, r3, r2, r4
        smull   r5, r6, r4, r3
        sdiv    r5, r4, r1
        eor.w   r6, r5, r4
        pop     {r4, r5, r6, pc}

/* Loads and stores (r0 = buf, zeroed RAM):
 *   ldr r1, [r0]            2
 *   ldr r2, [r0, #4]        1  pipelined after an LDR
 *   ldr r3, [r0, #8]        1  pipelined
 *   str r3, [r0, #12]       1  STR [Rn, #imm] is one cycle
 *   ldr r1, [r0, #16]       2  nothing pipelines after a store
 *   ldr r2, [r0, r1]        2  its address uses the previous LDR's result
 *   adds r3, r0, #4         1
 *   ldr r1, [r3]            3  2 + 1: its address is the previous ALU result
 *   ldrd r2, r3, [r0]       3  1 + N
 *   str r2, [r0, r1]        2  register offset, after LDRD (never pipelined)
 *   ldr.w r2, [r0], #4      2  after a store
 *   str r2, [r0, r1]        1  pipelined after an LDR (its loaded register,
 *                              not its written-back base, is what counts)
 *   bx lr                   1 + P = 2  (return target: 16-bit)
 * total 23 cycles, 13 instructions. */
        .align  2
        .thumb_func
        .global bench_loads
bench_loads:
        ldr     r1, [r0]
        ldr     r2, [r0, #4]
        ldr     r3, [r0, #8]
        str     r3, [r0, #12]
        ldr     r1, [r0, #16]
        ldr     r2, [r0, r1]
        adds    r3, r0, #4
        ldr     r1, [r3]
        ldrd    r2, r3, [r0]
        str     r2, [r0, r1]
        ldr.w   r2, [r0], #4
        str     r2, [r0, r1]
        bx      lr

/* Taken branches: a loop to an aligned 16-bit target, a loop to a 32-bit
 * target at an address 2 mod 4, a CBNZ loop.
 *   movs r1, #10            1
 * 1: subs r1, #1            1  x10
 *   bne 1b                  2 taken x9, 1 not taken  -> 19
 *   movs r1, #5             1
 *   nop                     1  (puts the next loop's start at 2 mod 4)
 * 2: subs.w r1, r1, #1      1  x5  (32-bit, address 2 mod 4)
 *   bne 2b                  1 + P = 3 taken x4, 1 not taken -> 13
 *   movs r1, #4             1
 * 3: subs r1, #1            1  x4
 *   cbz r1, 4f              1 not taken x3, 1 + P = 2 taken x1 -> 5
 *   b 3b                    1 + P = 2 x3 -> 6
 * 4: bx lr                  2
 * total 1+10+19 + 1+1+5+13 + 1+4+5+6 + 2 = 68 cycles, 46 instructions. */
        .align  2
        .thumb_func
        .global bench_branches
bench_branches:
        movs    r1, #10
1:      subs    r1, #1
        bne     1b
        movs    r1, #5
        nop
2:      subs.w  r1, r1, #1
        bne     2b
        movs    r1, #4
3:      subs    r1, #1
        cbz     r1, 4f
        b       3b
4:      bx      lr

/* An SMLAD dot product over 8 pairs of words (r0 = buf):
 *   push {r4, r5}           1 + N = 3
 *   mov r1, r0              1
 *   add.w r2, r0, #32       1
 *   movs r5, #0             1
 *   movs r0, #8             1
 * 1: ldr r3, [r1], #4       2  x8 (after a branch or a MOVS: not pipelined)
 *   ldr r4, [r2], #4        1  x8 (pipelined)
 *   smlad r5, r3, r4, r5    1  x8
 *   subs r0, #1             1  x8
 *   bne 1b                  2 taken x7, 1 not taken -> 15
 *   mov r0, r5              1
 *   pop {r4, r5}            1 + N = 3
 *   bx lr                   2
 * total 3+1+1+1+1 + 8*5 + 15 + 1+3+2 = 68 cycles, 48 instructions. */
        .align  2
        .thumb_func
        .global bench_smlad
bench_smlad:
        push    {r4, r5}
        mov     r1, r0
        add.w   r2, r0, #32
        movs    r5, #0
        movs    r0, #8
1:      ldr     r3, [r1], #4
        ldr     r4, [r2], #4
        smlad   r5, r3, r4, r5
        subs    r0, #1
        bne     1b
        mov     r0, r5
        pop     {r4, r5}
        bx      lr

        .bss
        .align  3
buf:    .space  64

/* bench-bpf-tailcall-chain.S — user-space replicas of a chain of 33 eBPF programs that
 * tail-call each other, as the x86-64 JIT of Linux 6.18 emits them (the instruction
 * sequences read back with BPF_OBJ_GET_INFO_BY_FD from this host's kernel; see
 * tools/bench-bpf-tailcall.c). Chains of the same blocks, one 128 bytes apart (a program
 * image of 74-99 bytes takes two of the BPF pack's 64-byte chunks):
 *   const      the key is a constant: the JIT's direct tail call (its poke site patched
 *              into jmp target+0xc once the program array holds the target);
 *   plain      the key comes from the context (skb->len): bounds check, array load,
 *              prog->bpf_func load, then jmp *%rcx, predicted;
 *   retpoline  the same, but the jump goes through a generic retpoline thunk, as the JIT
 *              emits it when the kernel runs spectre_v2=retpoline;
 * and, 256 bytes apart, the plain and retpoline chains taken apart: without the tail-call
 * counter's memory accesses (nocount: the prologue's frame kept), without them and the
 * frame (bare: a tail call enters the next block at its start), and bare with 16 more
 * ADDs a block: on the key, between its load and the slot's (dep: the jump's target
 * waits for them), or on %r8, cleared first in each block (ind: independent work the
 * jump does not wait for, and no chain from one block to the next).
 * Each block is a program: the JIT's prologue (its tail-call counter kept on the stack,
 * entered at +0xc by a tail call), the tail call to the next block, and the exit the last
 * block takes. The context's len field (offset 0x70) must be 64; the program arrays'
 * max_entries field sits at 0x4c and their slots at 0x138 (one array a variable-key chain,
 * ARRAY_BYTES apart from bench_tailcall_arrays); a program's bpf_func at 0x48. */
        .text

/* The JIT's 5-byte NOP (the assembler would pick a 4-byte form of the same mnemonic) */
        .macro NOP5
        .byte   0x0f, 0x1f, 0x44, 0x00, 0x00
        .endm

/* The JIT's prologue, a tail call's target being its +0xc */
        .macro PROLOGUE
        NOP5
        xor     %rax, %rax
        push    %rbp
        mov     %rsp, %rbp
        cmp     $0x21, %rax
        ja      8f
        push    %rax
        mov     %rsp, %rax
        jmp     9f
8:      push    %rax
9:      push    %rax
        .endm

        .macro EXIT frame=1
7:      xor     %eax, %eax
        .if \frame
        leave
        .endif
        ret
        .endm

/* Block i of the constant-key chain: a direct jump into block i + 1 (CHAIN passes it
 * no array and no thunk) */
        .macro CONST_BLOCK i, unused:vararg
        .p2align 7
        PROLOGUE
        mov     $(\i + 1), %edx
        movabs  $bench_tailcall_arrays, %rsi         /* the map's address; unused */
        mov     -0x10(%rbp), %rax
        cmpq    $0x21, (%rax)
        jae     7f
        NOP5
        addq    $0x1, (%rax)
        pop     %rax
        pop     %rax
        jmp     bench_tailcall_const + (\i + 1) * 128 + 0xc
        EXIT
        .endm

/* Block i of a variable-key chain: the slot (i + 1) read through skb->len (with `extra`
 * ADDs on the key when dep, on a cleared %r8 when not), then the jump; with count, the
 * JIT's tail-call counter checked and incremented through memory; with frame, its
 * prologue and pops (the target is then the next block's +0xc); blocks 2^align apart */
        .macro VAR_BLOCK i, array, retpoline, extra=0, dep=1, align=7, count=1, frame=1
        .p2align \align
        .if \frame
        PROLOGUE
        .endif
        mov     0x70(%rdi), %edx
        .if \dep
        add     $(\i + 1 - 64 - \extra), %rdx
        .rept   \extra
        add     $1, %rdx
        .endr
        .else
        add     $(\i + 1 - 64), %rdx
        xor     %r8d, %r8d
        .rept   \extra
        add     $1, %r8
        .endr
        .endif
        movabs  $\array, %rsi
        mov     %edx, %edx
        cmp     %edx, 0x4c(%rsi)
        jbe     7f
        .if \count
        mov     -0x10(%rbp), %rax
        cmpq    $0x21, (%rax)
        jae     7f
        .endif
        mov     0x138(%rsi,%rdx,8), %rcx
        test    %rcx, %rcx
        je      7f
        .if \count
        addq    $0x1, (%rax)
        .endif
        .if \frame
        pop     %rax
        pop     %rax
        .endif
        mov     0x48(%rcx), %rcx
        .if \frame
        add     $0xc, %rcx
        .endif
        .if \retpoline
        jmp     bench_tailcall_thunk_rcx
        .else
        jmp     *%rcx
        .endif
        EXIT    \frame
        .endm

        .macro LAST_BLOCK align=7, frame=1
        .p2align \align
        .if \frame
        PROLOGUE
        .endif
        EXIT    \frame
        .endm

/* The generic retpoline thunk for %rcx */
        .p2align 5
bench_tailcall_thunk_rcx:
        call    1f
2:      pause
        lfence
        jmp     2b
1:      mov     %rcx, (%rsp)
        ret
        int3

/* A chain of 33 blocks from name, 2^align bytes apart, with or without the JIT's frame:
 * block i by `block i, args`, then the last block (name_last) */
        .macro CHAIN name, align, frame, block, args:vararg
        .globl  \name, \name\()_last
        .p2align \align
\name:
        .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        \block \i, \args, align=\align, frame=\frame
        .endr
\name\()_last = \name + 32 * (1 << \align)
        LAST_BLOCK \align, \frame
        .endm

        .set    ARRAY_BYTES, 0x340        /* 0x138 + 64 slots, rounded to a line */
        .set    ARRAYS, bench_tailcall_arrays /* the n-th variable-key chain's array: ARRAYS + n * ARRAY_BYTES */
/* CHAIN name, align, frame, block[, the block's arguments after its index]: CHAIN passes the
 * block its align and frame */
        CHAIN   bench_tailcall_const,              7, 1, CONST_BLOCK
        CHAIN   bench_tailcall_plain,              7, 1, VAR_BLOCK, ARRAYS, 0
        CHAIN   bench_tailcall_retpoline,          7, 1, VAR_BLOCK, ARRAYS+ARRAY_BYTES, 1
        CHAIN   bench_tailcall_plain_nocount,      8, 1, VAR_BLOCK, ARRAYS+2*ARRAY_BYTES, 0, count=0
        CHAIN   bench_tailcall_retpoline_nocount,  8, 1, VAR_BLOCK, ARRAYS+3*ARRAY_BYTES, 1, count=0
        CHAIN   bench_tailcall_plain_bare,         8, 0, VAR_BLOCK, ARRAYS+4*ARRAY_BYTES, 0, count=0
        CHAIN   bench_tailcall_retpoline_bare,     8, 0, VAR_BLOCK, ARRAYS+5*ARRAY_BYTES, 1, count=0
        CHAIN   bench_tailcall_plain_bare_dep,     8, 0, VAR_BLOCK, ARRAYS+6*ARRAY_BYTES, 0, 16, count=0
        CHAIN   bench_tailcall_retpoline_bare_dep, 8, 0, VAR_BLOCK, ARRAYS+7*ARRAY_BYTES, 1, 16, count=0
        CHAIN   bench_tailcall_plain_bare_ind,     8, 0, VAR_BLOCK, ARRAYS+8*ARRAY_BYTES, 0, 16, dep=0, count=0
        CHAIN   bench_tailcall_retpoline_bare_ind, 8, 0, VAR_BLOCK, ARRAYS+9*ARRAY_BYTES, 1, 16, dep=0, count=0

/* The variable-key chains' program arrays (max_entries at 0x4c, slots at 0x138) and
 * program objects (bpf_func at 0x48 of 128 bytes each), filled by the C side */
        .data
        .globl  bench_tailcall_arrays, bench_tailcall_progs
        .p2align 6
bench_tailcall_arrays:
        .fill   10 * ARRAY_BYTES, 1, 0
        .p2align 6
bench_tailcall_progs:
        .fill   10 * 33 * 128, 1, 0

        .section .note.GNU-stack, "", @progbits

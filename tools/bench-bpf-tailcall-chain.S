/* bench-bpf-tailcall-chain.S — user-space replicas of a chain of 33 eBPF programs that
 * tail-call each other, as the x86-64 JIT of Linux 6.18 emits them (the instruction
 * sequences read back with BPF_OBJ_GET_INFO_BY_FD from this host's kernel; see
 * tools/bench-bpf-tailcall.c). Three chains of the same blocks, one 128 bytes apart (a
 * program image of 74-99 bytes takes two of the BPF pack's 64-byte chunks):
 *   const      the key is a constant: the JIT's direct tail call (its poke site patched
 *              into jmp target+0xc once the program array holds the target);
 *   plain      the key comes from the context (skb->len): bounds check, array load,
 *              prog->bpf_func load, then jmp *%rcx, predicted;
 *   retpoline  the same, but the jump goes through a generic retpoline thunk, as the JIT
 *              emits it when the kernel runs spectre_v2=retpoline.
 * Each block is a program: the JIT's prologue (its tail-call counter kept on the stack,
 * entered at +0xc by a tail call), the tail call to the next block, and the exit the last
 * block takes. The context's len field (offset 0x70) must be 64; the program arrays'
 * max_entries field sits at 0x4c and their slots at 0x138; a program's bpf_func at 0x48. */
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

        .macro EXIT
7:      xor     %eax, %eax
        leave
        ret
        .endm

/* Block i of the constant-key chain: a direct jump into block i + 1 (CHAIN passes it
 * no array and no thunk) */
        .macro CONST_BLOCK i, unused:vararg
        .p2align 7
        PROLOGUE
        mov     $(\i + 1), %edx
        movabs  $bench_tailcall_array_const, %rsi
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

/* Block i of a variable-key chain: the slot (i + 1) read through skb->len, then jump */
        .macro VAR_BLOCK i, array, retpoline
        .p2align 7
        PROLOGUE
        mov     0x70(%rdi), %edx
        add     $(\i + 1 - 64), %rdx
        movabs  $\array, %rsi
        mov     %edx, %edx
        cmp     %edx, 0x4c(%rsi)
        jbe     7f
        mov     -0x10(%rbp), %rax
        cmpq    $0x21, (%rax)
        jae     7f
        mov     0x138(%rsi,%rdx,8), %rcx
        test    %rcx, %rcx
        je      7f
        addq    $0x1, (%rax)
        pop     %rax
        pop     %rax
        mov     0x48(%rcx), %rcx
        add     $0xc, %rcx
        .if \retpoline
        jmp     bench_tailcall_thunk_rcx
        .else
        jmp     *%rcx
        .endif
        EXIT
        .endm

        .macro LAST_BLOCK
        .p2align 7
        PROLOGUE
        EXIT
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

/* A chain of 33 blocks from name: block i by `block i, args`, then the last block
 * (name_last) */
        .macro CHAIN name, block, args:vararg
        .globl  \name, \name\()_last
        .p2align 7
\name:
        .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        \block \i, \args
        .endr
\name\()_last = \name + 32 * 128
        LAST_BLOCK
        .endm

        CHAIN   bench_tailcall_const, CONST_BLOCK
        CHAIN   bench_tailcall_plain, VAR_BLOCK, bench_tailcall_array_plain, 0
        CHAIN   bench_tailcall_retpoline, VAR_BLOCK, bench_tailcall_array_retpoline, 1

/* The program arrays (max_entries 64 at 0x4c, slots at 0x138, filled by the C side) and
 * the programs' bpf_func fields (at 0x48 of a 128-byte object each) */
        .data
        .globl  bench_tailcall_array_const, bench_tailcall_array_plain
        .globl  bench_tailcall_array_retpoline, bench_tailcall_progs
        .p2align 6
bench_tailcall_array_const:
        .fill   0x138 + 64 * 8, 1, 0
        .p2align 6
bench_tailcall_array_plain:
        .fill   0x138 + 64 * 8, 1, 0
        .p2align 6
bench_tailcall_array_retpoline:
        .fill   0x138 + 64 * 8, 1, 0
        .p2align 6
bench_tailcall_progs:
        .fill   2 * 33 * 128, 1, 0

        .section .note.GNU-stack, "", @progbits

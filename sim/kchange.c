/* kchange.c — the registry of kernel changes netsim tells apart by release (kchange.h).
 * Each entry: the first mainline release that has the change (a release candidate where it
 * went in during one; a bound without one, "7.0", is the release after its rcs) and the
 * first release of each stable series that took it, read where `evidence` says; a series
 * not listed never took it, or was not verified and so is not assumed. */
#include "config.h"
#include "kchange.h"

static const NsKernelChangeInfo changes[NS_KCHANGE_COUNT] = {
  [NS_KCHANGE_UDP_SELECT_SKIPS_ESTABLISHED] = {
    "acdcecc61285", "udp: correct reuseport selection with connected sockets",
    "udp: select_by_hash skips connected members (lookup generation B1)",
    { "5.4-rc1", { "5.3.1", "5.2.17" } },
    "net, 12 Sep 2019, merged for v5.4-rc1; the Linux 5.3.1 and 5.2.17 announcements "
    "(21 Sep 2019)" },
  [NS_KCHANGE_UDP_KEEP_SELECTION] = {
    "efc6b6f6c311", "udp: Improve load balancing for SO_REUSEPORT.",
    "udp: a selection in a group with connections is kept (generation B)",
    { "5.8-rc7", { "5.7.12", "5.4.55" } },
    "net, in v5.8-rc7; the Linux 5.7.12 announcement (31 Jul 2020), the 5.4.55-rc1 review "
    "(\"Upstream commit efc6b6f6c311\"); 4.19.136 took it too, below the model" },
  [NS_KCHANGE_UDP_SELECT_PREFERS_CPU] = {
    "b261eda84ec1", "soreuseport: Fix socket selection for SO_INCOMING_CPU.",
    "udp: a reuseport selection prefers a member whose SO_INCOMING_CPU is the CPU",
    { "6.2-rc1", { "6.1.2", "6.0.16" } },
    "net-next, 25 Oct 2022; the Linux 6.1.2 announcement, the 6.0.16 review (28 Dec 2022) "
    "and its -rc2; 5.15.y and older not verified" },
  [NS_KCHANGE_UDP_BIND_HASH2_FIX] = {
    "e537dd15d0d4", "udp: Fix wildcard bind conflict check when using hash2",
    "udp bind: the hash2 conflict check only for a specific address",
    { "7.0", { "6.19.11", "6.18.21", "6.12.80", "6.6.131", "6.1.168" } },
    "March 2026; the 6.19.11 and 6.1.168 announcements, the 6.18.21, 6.12.80 and 6.6.131 "
    "reviews of 31 Mar 2026; NVD (CVE-2026-31503) counts 7.0-rc1 to rc7 as affected" },
  [NS_KCHANGE_UDP_RESCORE] = {
    "f0ea27e7bfe1", "udp: re-score reuseport groups when connected sockets are present",
    "udp: a second compute_score call site re-scores the selection (generation C)",
    { "6.6-rc1", { "6.5.3", "6.4.16", "6.1.53", "5.15.132", "5.10.195" } },
    "the bpf-next pull of 3 Aug 2023, in the net-next pull for 6.6; the Linux 6.4.16, "
    "6.1.53, 5.15.132 and 5.10.195 announcements, the linux-6.5.y push ending in 6.5.3; "
    "5.4.257's shortlog lacks it" },
  [NS_KCHANGE_UDP_SINGLE_SCORE_SITE] = {
    "50aee97d1511", "udp: Avoid call to compute_score on multiple sites",
    "udp: one compute_score call site, folded in again (generation D; seed 000's fix)",
    { "6.10-rc1", { "6.9.3", "6.8.12", "6.6.33", "6.1.93", "5.15.161", "5.10.219" } },
    "the networking pull for v6.10 (14 May 2024); the Linux 6.9.3, 6.8.12, 6.6.33, 6.1.93, "
    "5.15.161 and 5.10.219 announcements" },
  [NS_KCHANGE_UDP_SHARED_REUSEPORT_LOOKUP] = {
    NULL, "net: export inet_lookup_reuseport and inet6_lookup_reuseport; net: remove "
    "duplicate reuseport_lookup functions",
    "udp: the lookup calls the shared inet(6)_lookup_reuseport",
    { "6.6-rc1", { "6.1.93", "5.15.161", "5.10.219" } },
    "Lorenz Bauer, with f0ea27e7bfe1 in 6.6-rc1; the 6.1.93, 5.15.161 and 5.10.219 "
    "announcements list both (6.4.16 and 6.5.3 dropped them after review)" },
  [NS_KCHANGE_UDP_IPV6_JHASH2] = {
    "d11b0df7ddf1", "tcp: Reduce chance of collisions in inet6_hashfn().",
    "udp: jhash2 of an IPv6 address's four words (CVE-2023-1206)",
    { "6.5-rc4", { "6.4.8", "6.1.43", "5.15.124", "5.10.190", "5.4.253" } },
    "net, v6.5-rc4; the Linux 6.4.8, 6.1.43, 5.15.124, 5.10.190 and 5.4.253 "
    "announcements; 4.19.291 and 4.14.322 took it too, below the model" },
  [NS_KCHANGE_UDP_DEV_BONUS_BOUND_ONLY] = {
    "8d6c414cd2fb", "net: prefer socket bound to interface when not in VRF",
    "udp: the device bonus only for a socket bound to a device",
    { "5.15-rc5", { "5.14.12", "5.10.73", "5.4.153" } },
    "net, v5.15-rc5; the Linux 5.14.12, 5.10.73 and 5.4.153 announcements; 4.19.211's "
    "lacks it" },
  [NS_KCHANGE_X64_SYS_CALL] = {
    "1e3ad78334a6", "x86/syscall: Don't force use of indirect calls for system calls",
    "system calls: x64_sys_call's compare tree, not sys_call_table's indirect call",
    { "6.9-rc4", { "6.8.5", "6.6.26", "6.1.85", "5.15.154" } },
    "with the BHI series, 9 Apr 2024; the Linux 6.8.5, 6.6.26, 6.1.85 and 5.15.154 "
    "announcements (10 Apr 2024; 5.15.154's lists the six BHI patches and this one, added "
    "at its -rc2); 5.10.y never took the series (CVE-2024-42240's record names 5.15, 6.1, "
    "6.6 and 6.9 only; 5.10.215 and 5.10.216 have none of it)" },
  [NS_KCHANGE_LSM_STATIC_CALLS] = {
    "417c5643cd67", "lsm: replace indirect LSM hook calls with static calls",
    "security hooks: static-call slots, BPF-LSM's off until a program attaches",
    { "6.12-rc1", { NULL } },
    "the LSM pull of 11 Sep 2024, merged 16 Sep (v6.12-rc1); no stable series took it" },
  [NS_KCHANGE_TC_RSVP_RETIRED] = {
    "265b4da82dbf", "net/sched: Retire rsvp classifier",
    "tc: rsvp and rsvp6 leave the retpoline wrapper's compare chain",
    { "6.3-rc1", { "6.1.55", "5.15.133", "5.10.197", "5.4.257", "4.19.295", "4.14.326" } },
    "net-next, Feb 2023; the 6.1.55 and 5.15.133 pushes, the 5.10.197, 5.4.257, 4.19.295 "
    "and 4.14.326 announcements (Sep 2023); 6.2.y not verified" },
  [NS_KCHANGE_TC_TCINDEX_RETIRED] = {
    "8c710f75256b", "net/sched: Retire tcindex classifier",
    "tc: tcindex leaves the retpoline wrapper's compare chain",
    { "6.3-rc1", { "6.2.5", "6.1.18", "5.15.100", "5.10.173", "5.4.235", "4.19.276",
                   "4.14.308" } },
    "net-next, Feb 2023; the 6.2.5, 5.15.100, 5.10.173, 5.4.235, 4.19.276 and 4.14.308 "
    "announcements, the linux-6.1.y push ending in 6.1.18 (Mar 2023)" },
  [NS_KCHANGE_TC_RECLASSIFY_LOOP_16] = {
    "05ff8435e505", "net/sched: cls_api: increase max_reclassify_loop",
    "tc: 16 reclassify restarts before a packet is shot, not 4",
    { "5.14-rc1", { "5.13.3", "5.12.18", "5.10.51" } },
    "net-next, May 2021; the 5.10.51 and 5.12.18 announcements, the linux-5.13.y push "
    "ending in 5.13.3" },
  [NS_KCHANGE_BHI_RETPOLINE_CHECK] = {
    "69129794d94c", "x86/bugs: Fix BHI retpoline check",
    "mitigations: the LFENCE retpolines no longer count as mitigating BHI",
    { "6.9-rc5", { "6.8.8", "6.6.29", "6.1.88", "5.15.157" } },
    "x86/urgent for v6.9-rc5; the Linux 6.8.8, 6.6.29, 6.1.88 and 5.15.157 "
    "announcements" },
  [NS_KCHANGE_NETDEV_CACHELINE_GROUPS] = {
    "43a71cd66b9c", "net-device: reorganize net_device fast path variables",
    "net_device: the fast-path fields in the read_tx / read_txrx / read_rx cache-line "
    "groups at the front, not spread over 2.2 KiB (models/net/netdevice.c layouts)",
    { "6.8-rc1", { NULL } },
    "the \"Networking for v6.8\" pull (tags/net-next-6.8, 9 Jan 2024) lists it; a "
    "reorganisation, not a fix (no Fixes: or stable tag), and Debian's 6.1.176 DWARF "
    "still has the v6.1 order" },
  [NS_KCHANGE_SK_MEMORY_PCPU_RESERVE] = {
    "3cd3399dd7a8", "net: implement per-cpu reserves for memory_allocated",
    "socket memory: memory_allocated changes gather in a per-CPU reserve, not one atomic",
    { "6.0-rc1", { NULL } },
    "the \"Networking changes for 6.0\" pull (net-next, June 2022); no stable mail; 5.15.y "
    "runs without it. (6.1.90 and 6.6.30 took 3584718cf2ec, the softirq fix of "
    "sk_memory_allocated_add, not modelled)" },
  [NS_KCHANGE_TC_RETPOLINE_WRAPPER] = {
    "7f0e810220e2", "net/sched: add retpoline wrapper for tc",
    "tc: the merged retpoline wrapper (include/net/tc_wrapper.h) and its static key",
    { "6.2-rc1", { NULL } },
    "seed 002's thread: the v6 series applied to net-next on 9 Dec 2022 (2a7d228f1ae7, "
    "7f0e810220e2, 871cf386dd16, 9f3101dca3a7), the v6.2 merge window; a feature, "
    "no stable series took it" },
  [NS_KCHANGE_SKB_SMALL_HEAD_CACHE] = {
    "bf9f1baa279f", "net: add dedicated kmem_cache for typical/small skb->head",
    "skb heads up to SKB_SMALL_HEAD_CACHE_SIZE from skb_small_head_cache, not kmalloc",
    { "6.3-rc1", { NULL } },
    "the \"Networking changes for 6.3\" pull; no stable mail, and CVE-2026-31429's record "
    "for it starts the affected releases at 6.3" },
  [NS_KCHANGE_UDP_RMEM_SCHEDULE] = {
    "fd9c31f83441", "udp: introduce __sk_mem_schedule() usage",
    "udp receive: udp_rmem_schedule raises only the shortfall, through __sk_mem_schedule",
    { "6.4-rc1", { NULL } },
    "applied to net-next on 10 Mar 2023, after v6.3-rc1 (5 Mar); no stable mail names it" },
  [NS_KCHANGE_UDP_DATA_READY_WRAPPER] = {
    "0558e1674598", "udp: use indirect call wrapper for data ready()",
    "udp receive: sk_data_ready through INDIRECT_CALL_1, a direct call to "
    "sock_def_readable",
    { "6.6-rc1", { NULL } },
    "applied to net-next on 20 Jul 2023 (patchwork-bot), in the networking pull for 6.6; no "
    "stable mail names it; Debian 6.1.176's binary still calls through the pointer" },
  [NS_KCHANGE_TC_IPT_RETIRED] = {
    "ba24ea129126", "net/sched: Retire ipt action",
    "tc: tcf_ipt_act leaves the retpoline wrapper's action chain",
    { "6.8-rc1", { NULL } },
    "the \"Networking changes for 6.8\" pull (its patch removes the chain's ipt test from "
    "include/net/tc_wrapper.h; v6.9's 86fe596b588f only drops the Kconfig entry); no "
    "stable series took it" },
  [NS_KCHANGE_UDP_SKIP_DATA_READY] = {
    "612b1c0dec5b", "udp: avoid calling sock_def_readable() if possible",
    "udp receive: no sk_data_ready for a datagram queued behind others (the queue was "
    "not empty), only sk_wake_async_rcu",
    { "6.10-rc1", { NULL } },
    "net-next, 29 Mar 2024, in the networking pull for 6.10; no stable took it. Reverted by "
    "3d501f562f63 (Revert \"udp: avoid calling sock_def_readable() if possible\"; blocked "
    "readers were missed) in the net pull for v6.13-rc2 (Dec 2024) and the linux-6.12.y "
    "push of 12 Dec 2024 that became 6.12.5; 6.10.y ended before it (6.10.14, Oct 2024), "
    "6.11.y with 6.11.11 (5 Dec 2024, its queue out on 3 Dec), so both run the change",
    "3d501f562f63", { "6.13-rc2", { "6.12.5" } } },
  [NS_KCHANGE_UDP_HASH4] = {
    "78c91ae2c6de", "ipv4/udp: Add 4-tuple hash for connected socket",
    "udp: the hash4 table; hslot2 carries hash4_cnt, a connected socket's lookup tries it "
    "first",
    { "6.13-rc1", { NULL } },
    "Philo Lu's series (accdd51dc74f, dab78a1745ab, 78c91ae2c6de, 1b29a730ef8b), merged to "
    "net-next 18 Nov 2024, in the networking pull for 6.13; no stable mail names them" },
  [NS_KCHANGE_UDP_LOOKUP1] = {
    "a502ea6fa94b", "udp: Deal with race between UDP socket address change and rehash",
    "udp: a failed lookup falls back to the port-only chain (udp4/udp6_lib_lookup1)",
    { "6.14-rc1", { "6.13.2", "6.12.13" } },
    "net-next, 23 Dec 2024; the 6.13.2 review (\"[PATCH 6.13 129/623]\", 5 Feb 2025) and "
    "6.12.13; dropped from the 5.4 to 6.6 queues (stable-queue 64df1ad6f6ee); "
    "CVE-2024-57974 lists 6.12.13, 6.13.2 and 6.14" },
  [NS_KCHANGE_SOCK_FIELDS_REORGANIZED] = {
    "5d4cc87414c5", "net: reorganize \"struct sock\" fields",
    "struct sock: the fast-path fields in its cache-line groups (sock.h); before it a UDP "
    "socket is charged at v6.1's offsets (models/net/sock.c)",
    { "6.9-rc1", { NULL } },
    "netdev, 16 Feb 2024, in the networking pull for 6.9; a reorganisation, not a fix; "
    "Debian 6.1.176's DWARF has the old order" },
  [NS_KCHANGE_SPECTRE_V2_RETPOLINE_AMD_ANY_CPU] = {
    "f8a66d608a3e", "x86,bugs: Unconditionally allow spectre_v2=retpoline,amd",
    "mitigations: spectre_v2=retpoline,amd is taken on a CPU not AMD's; before it "
    "spectre_v2_parse_cmdline() switches such a CPU to its auto choice",
    { "5.16-rc1", { "5.15.28", "5.10.105", "5.4.184", "4.19.234", "4.14.271", "4.9.306" } },
    "the objtool/core pull for v5.16-rc1, merged 1 Nov 2021 (43aa0a195f06); with the "
    "Spectre-BHB fixes in the stables of 11 March 2022 (queued 10 March for their -rc2 "
    "reviews; 5.16.y had it from mainline); 5.11.y to 5.14.y had ended" },
  [NS_KCHANGE_SPECTRE_BHB_OPTIONS] = {
    NULL, "x86/speculation: Add eIBRS + Retpoline options; x86/speculation: Rename "
    "RETPOLINE_AMD to RETPOLINE_LFENCE",
    "mitigations: spectre_v2= knows eibrs, eibrs,retpoline, eibrs,lfence and "
    "retpoline,lfence (1e19da8522c8, d45476d98324)",
    { "5.17-rc8", { "5.16.14", "5.15.28", "5.10.105", "5.4.184", "4.19.234", "4.14.271",
                    "4.9.306" } },
    "the Spectre-BHB fixes, merge 4a01e748a51c (8 Mar 2022), in the v5.17-rc8 shortlog; "
    "the stables of 11 March 2022, whose -rc2 queues of 10 March took the x86 patches; "
    "5.11.y to 5.14.y had ended" },
  [NS_KCHANGE_AMD_GENERIC_RETPOLINE] = {
    "244d00b5dd47", "x86/speculation: Use generic retpoline by default on AMD",
    "mitigations: an AMD CPU's spectre_v2 default is the generic retpoline, not the LFENCE "
    "one; a stable release with it runs its profile's default for v5.17-rc8",
    { "5.17-rc8", { "5.16.14", "5.15.28", "5.10.105", "5.4.184", "4.19.234", "4.14.271",
                    "4.9.306" } },
    "with the Spectre-BHB fixes (merge 4a01e748a51c, v5.17-rc8 shortlog); the same stables "
    "of 11 March 2022 (their queues list it beside the eIBRS options; the Linux 4.14.271 "
    "announcement names it with f8a66d608a3e, the eIBRS options and the LFENCE rename)" },
  [NS_KCHANGE_RETBLEED_PARAM] = {
    "7fbf47c7ce50", "x86/bugs: Add AMD retbleed= boot parameter",
    "mitigations: the retbleed= key (the Retbleed series)",
    { "5.19-rc7", { "5.18.14", "5.15.57", "5.10.133" } },
    "the Retbleed series, merge ce114c866860 (12 Jul 2022), in the v5.19-rc7 shortlog; the "
    "stables of 23-25 July 2022 (LWN 902317, LibreELEC.tv#6733 and #6734); 5.16.y and "
    "5.17.y had ended. 5.4.217, 4.19.266 and 4.14.297 took it in part (off and auto "
    "only): not listed, as netsim would read their other values as mainline does, where "
    "their parser calls them unknown and keeps the default" },
  [NS_KCHANGE_SPECTRE_V2_IBRS] = {
    "7c693f54c873", "x86/speculation: Add spectre_v2=ibrs option to support Kernel IBRS",
    "mitigations: spectre_v2=ibrs (IBRS on kernel entry)",
    { "5.19-rc7", { "5.18.14", "5.15.57", "5.10.133", "5.4.217", "4.19.266", "4.14.297" } },
    "the Retbleed series (merge ce114c866860), v5.19-rc7 shortlog; the stables of 23-25 "
    "July 2022; the IBRS backports of 5.4.217, 4.19.266 and 4.14.297 (their announcements "
    "list it)" },
  [NS_KCHANGE_SRSO] = {
    "fb3bd914b3ec", "x86/srso: Add a Speculative RAS Overflow mitigation",
    "mitigations: spec_rstack_overflow= and the SRSO defaults; a stable release with it "
    "runs its profile's SRSO default for v6.5-rc6",
    { "6.5-rc6", { "6.4.9", "6.1.44", "5.15.125", "5.10.189" } },
    "merge 138bcddb86d8 (8 Aug 2023, after v6.5-rc5), in the v6.5-rc6 shortlog; the "
    "stables of 8 August 2023 (6.1.43's announcement lacks it); 5.4.252-254, 4.19.290 "
    "and 4.14.321 took only the GDS patches; 6.2.y and 6.3.y had ended" },
  [NS_KCHANGE_BHI_KNOB] = {
    "ec9404e40e8f", "x86/bhi: Add BHI mitigation knob",
    "mitigations: spectre_bhi= and the native BHI defaults (the clearing loop); a stable "
    "release with it runs its profile's BHI default for v6.9-rc4",
    { "6.9-rc4", { "6.8.5", "6.6.26", "6.1.85", "5.15.154" } },
    "the native BHI series, merge 2bb69f5fc721 (9 Apr 2024), in the v6.9-rc4 shortlog; "
    "the Linux 6.8.5, 6.6.26, 6.1.85 and 5.15.154 announcements (10 Apr 2024); 6.7.y's "
    "last release, 6.7.12, came out on 3 April; 5.10.y never took it (CVE-2024-42240)" },
  [NS_KCHANGE_RETBLEED_STUFF] = {
    "d82a0345cf21", "x86/retbleed: Add call depth tracking mitigation",
    "mitigations: retbleed=stuff (call depth tracking); before it the parser does not "
    "know the value",
    { "6.2-rc1", { NULL } },
    "the x86/core pull for v6.2-rc1 (pushed 14 Dec 2022); no stable mail names it" },
  [NS_KCHANGE_SPECTRE_BHI_VMEXIT] = {
    "42c141fbb651", "x86/bugs: Add 'spectre_bhi=vmexit' cmdline option",
    "mitigations: spectre_bhi=vmexit (the clearing loop on VM exit only); before it "
    "spectre_bhi_parse_cmdline() ignores the word",
    { "6.11-rc1", { NULL } },
    "merged 16 Jul 2024 for v6.11-rc1; a feature without a stable tag, and no stable "
    "review mail names it" },
  [NS_KCHANGE_PTI_EARLY_PARAM] = {
    "0bd7feb2df7e", "x86/pti: Fix kernel warnings for pti= and nopti cmdline options",
    "mitigations: pti= and nopti become early parameters; before it "
    "pti_check_boottime_disable() finds them anywhere in the line (past a \"--\" too)",
    { "6.7-rc1", { NULL } },
    "merged 30 Oct 2023 for v6.7-rc1 (tip carried it as 9fa4dc9797f2 and e2efc8e7d36a "
    "before two rebases); no stable mail names it" },
  [NS_KCHANGE_SRSO_IBPB_DROPS_UNTRAIN_RET] = {
    "c62fa117c32b", "x86/bugs: Do not use UNTRAIN_RET with IBPB on entry",
    "mitigations: SRSO's IBPB on entry clears the untrained return (retbleed=unret then "
    "runs no return thunk and no UNTRAIN_RET)",
    { "6.12-rc4", { "6.11.5", "6.6.58", "6.1.114", "5.15.169", "5.10.228" } },
    "x86/urgent, pushed 18 Oct 2024 (v6.12-rc4); the 6.11.5, 6.6.58, 6.1.114, 5.15.169 and "
    "5.10.228 stable mails; 6.10.y had ended (6.10.14, about 10 Oct 2024)" },
  [NS_KCHANGE_MITIGATIONS_BUILD_DEFAULT_OFF] = {
    "f337a6a21e2f", "x86/cpu: Actually turn off mitigations by default for "
    "SPECULATION_MITIGATIONS=n",
    "mitigations: a build without the mitigations menu defaults cpu_mitigations to off "
    "(mitigations=auto turns it on again)",
    { "6.9-rc4", { "6.8.7", "6.6.28", "6.1.87", "5.15.156", "5.10.216" } },
    "with the BHI fixes for v6.9-rc4; the 6.8.7, 6.6.28, 6.1.87, 5.15.156 and 5.10.216 "
    "stable mails; the menu itself is f43b9876e857's (5.15.57, 5.10.133 on)" },
  [NS_KCHANGE_MITIGATIONS_PARAM_IGNORED] = {
    "ce0abef6a1d5", "cpu: Ignore \"mitigations\" kernel parameter if CPU_MITIGATIONS=n",
    "mitigations: on a build without the mitigations menu the kernel ignores mitigations=",
    { "6.9-rc6", { "6.8.12", "6.6.33" } },
    "in the v6.9-rc6 shortlog (still under review on 24 Apr 2024); the 6.8.12 and 6.6.33 "
    "stable mails; none found for 6.1.y" },
  [NS_KCHANGE_CPU_MITIGATIONS_RENAME] = {
    "fe42754b94a4", "cpu: Re-enable CPU mitigations by default for !X86 architectures",
    "mitigations: x86's CONFIG_SPECULATION_MITIGATIONS is named CONFIG_CPU_MITIGATIONS",
    { "6.9-rc6", { "6.8.9", "6.6.30", "6.1.90", "5.15.158", "5.10.216" } },
    "in the v6.9-rc6 shortlog; the 6.8.9, 6.6.30, 6.1.90, 5.15.158 and 5.10.216 stable "
    "mails" },
  [NS_KCHANGE_MITIGATION_CONFIG_RENAMES] = {
    NULL, "x86/bugs: Rename CONFIG_RETPOLINE => CONFIG_MITIGATION_RETPOLINE, and nine "
    "more renames to CONFIG_MITIGATION_*",
    "mitigations: the x86 mitigation options take their CONFIG_MITIGATION_ names",
    { "6.9-rc1", { NULL } },
    "Breno Leitao's series (aefb2f2e619b, a033eec9a06c, ea4654e08853, 5fa31af31e72, ...), "
    "the x86-core-2024-03-11 pull merged 12 Mar 2024; no 6.8.y, 6.6.y or 6.1.y backport "
    "found" },
  [NS_KCHANGE_UDP_RMEM_ADD_RELAXED] = {
    "6a1f12dd85a8", "udp: relax atomic operation on sk->sk_rmem_alloc",
    "udp receive: the charge is a plain atomic_add, without the second test (charged total "
    "above truesize + sk_rcvbuf) after it",
    { "6.10-rc1", { NULL } },
    "Eric Dumazet, net-next (March 2024), in the networking pull for 6.10; no stable "
    "backport mail found" },
  [NS_KCHANGE_UDP_RMEM_WRAPAROUND_FIX] = {
    "5a465a0da13e", "udp: Fix multiple wraparounds of sk->sk_rmem_alloc.",
    "udp receive: the test before the charge is unsigned and on rmem + truesize: over "
    "sk_rcvbuf, a buffer above INT_MAX >> 1 drops, a smaller one drops when rmem > "
    "sk_rcvbuf",
    { "6.15-rc1", { "6.14.2", "6.13.11", "6.12.23" } },
    "Kuniyuki Iwashima, the net tree on 3 Apr 2025 (net-6.15-rc0); 6.14.2, 6.13.11 and "
    "6.12.23 per the OSV record of CVE-2025-22059; 6.6.y and 6.1.y not affected" },
  [NS_KCHANGE_UDP_RMEM_ADMIT_EMPTY_ONLY] = {
    "9aaec660b5be", "udp: refine __udp_enqueue_schedule_skb() test",
    "udp receive: a datagram over sk_rcvbuf is let in only when nothing is charged (rmem "
    "!= 0 drops), not while rmem <= sk_rcvbuf",
    { "6.18-rc1", { NULL } },
    "Eric Dumazet's series in net-next-6.18 (merged 2 Oct 2025) with faf7b4aefd5b and "
    "b650bf0977d3 (the busylock's per-NUMA producer queues), neither modelled; stables not "
    "checked" },
  [NS_KCHANGE_MITIGATIONS_MENU] = {
    "f43b9876e857", "x86/retbleed: Add fine grained Kconfig knobs",
    "mitigations: the SPECULATION_MITIGATIONS Kconfig menu that holds the mitigation "
    "options (=n takes them away)",
    { "5.19-rc7", { "5.18.14", "5.15.57", "5.10.133" } },
    "the Retbleed series (merge ce114c866860, v5.19-rc7); the 5.18.14, 5.15.57 and "
    "5.10.133 announcements (23-25 Jul 2022) list it, and 5.18.13, 5.15.56 and 5.10.132 "
    "have none of the series (5.15.55-rc1 carried it but 5.15.55 shipped only a gpmi-nand "
    "revert)" },
  [NS_KCHANGE_TCX] = {
    "e420bed02507", "bpf: Add fd-based tcx multi-prog infra with link support",
    "tc: dev->tcx_egress is a bpf_mprog_entry in a tcx_entry (kmalloc-2k, one per "
    "direction from clsact's init) whose miniq the egress hook reaches through "
    "entry->parent, classifying in tc_run, a function of its own",
    { "6.6-rc1", { NULL } },
    "the bpf-next pull into net-next of 19 Jul 2023 and \"[GIT PULL] Networking for 6.6\" "
    "(29 Aug 2023, with 28d18b673ffa and 3a1e2f43985a, the egress hook's consume fixes); "
    "a feature, no stable took it" },
  [NS_KCHANGE_TC_DROP_REASON] = {
    "54a59aed395c", "net, sched: Make tc-related drop reason more flexible",
    "tc: the egress hook passes tc_run a drop reason (SKB_DROP_REASON_TC_EGRESS), which "
    "tc_run hands to tcf_classify's result (v6.8's fb2780721ca5: in tc_skb_cb)",
    { "6.7-rc1", { "6.6.153" } },
    "net-next, Oct 2023 (its fix 40cb2fdfed34 is a 6.7 \"current release\" regression fix "
    "of 9 Nov 2023); the linux-6.6.y push from 6.6.152 to 6.6.153 carries it with "
    "39d08b91646d, 40cb2fdfed34, fb2780721ca5 and 4cf24dc89340" },
  [NS_KCHANGE_TC_SW_BYPASS_KEY] = {
    "047f340b36fc", "net: sched: make skip_sw actually skip software",
    "tc: tc_run tests tcf_bypass_check_needed_key (off unless a block's filters all skip "
    "software: a NOP)",
    { "6.10-rc1", { "6.6.152" } },
    "net-next, 29 Mar 2024 (patchwork), \"Networking changes for 6.10\"; the linux-6.6.y "
    "pushes before \"Linux 6.6.152\" carry it with its two prerequisites and a12c76a03386" },
  [NS_KCHANGE_BPF_NET_CONTEXT] = {
    "401cb7dae813", "net: Reference bpf_redirect_info via task_struct on PREEMPT_RT.",
    "tc: the egress hook sets and clears current->bpf_net_context around tc_run, its "
    "on-stack bpf_net_context zeroed (CONFIG_INIT_STACK_ALL_ZERO: a REP STOSQ)",
    { "6.11-rc1", { NULL } },
    "net-next, Jun 2024 (v9 of the series); AUTOSEL for 6.10 dropped it (\"not a fix\"), "
    "and a 6.6 backport (Feb 2025) was not applied as far as the 6.6.152/153 pushes show" },
  [NS_KCHANGE_TC_SW_BYPASS_USESWCNT] = {
    "a12c76a03386", "net: sched: refine software bypass handling in tc_run",
    "tc: tc_run tests tcf_sw_enabled_key and reads the block's useswcnt (its third line) "
    "before classifying; a block with no software filter returns at once",
    { "6.14-rc1", { "6.6.152", "6.12.13", "6.13.2" } },
    "net-next, mid-Jan 2025; the \"Linux 6.12.13\" announcement, the 6.13.2-rc2 review "
    "shortlog, the linux-6.6.y pushes before \"Linux 6.6.152\"; Debian 6.12.118's tc_run "
    "has it" },
  [NS_KCHANGE_X86_KERNEL_IBT] = {
    "156ff4a544ae", "x86/ibt: Base IBT bits",
    "build: CONFIG_X86_KERNEL_IBT, endbr64 at the entry of each function an indirect call "
    "may reach (global or address-taken), one instruction a call (read only where a "
    "scenario states it: each frame otherwise as its census binary ran it)",
    { "5.18-rc1", { NULL } },
    "the IBT series (tip 41c5ef31ad71, mainline 156ff4a544ae, named in the later Fixes "
    "tags), x86/core for v5.18; a plain bool (default n) until a later def_bool y; Debian's "
    "6.1.176 build lacks it, its 6.12 builds have it" },
  [NS_KCHANGE_X86_REP_INSNS] = {
    "20f3337d350c", "x86: don't use REP_GOOD or ERMS for small memory clearing",
    "memset: __memset runs its own rep stosb on a CPU the kernel marks FSRS (one that "
    "enumerates it, or with e046fe5a36a9 of the same series an AMD CPU with FSRM) and "
    "jumps to memset_orig on any other; memset_erms and the REP_GOOD body are gone",
    { "6.4-rc1", { NULL } },
    "Linus's x86-rep-insns branch (with e046fe5a36a9 \"x86: set FSRS automatically on AMD "
    "CPUs that have FSRM\" and 577e6a7fd50d, the user copies' inline rep movsb on FSRM), "
    "merged by a5624566431d on 24 Apr 2023 for 6.4-rc1; no stable took the series (6.1.29 "
    "took only its clear_user annotation fix); Debian 6.12.118's init_amd sets FSRS from "
    "FSRM and its memset is the FSRS alternative" },
  [NS_KCHANGE_X86_COPY_USER_FSRM_TEST] = {
    "244122b4d2e5", "x86/lib: Add fast-short-rep-movs check to copy_user_enhanced_fast_string()",
    "user copies: copy_user_enhanced_fast_string's test that sends copies under 64 bytes to "
    "the short-copy loops is patched out on an FSRM CPU; before it every CPU runs the loops "
    "for them",
    { "5.17-rc1", { NULL } },
    "tip x86/cpu (tip-bot2, 29 Dec 2021), the tag x86_cpu_for_v5.17_rc1 it tops, merged "
    "by 25f8c7785e25 on 10 Jan 2022; a feature, no stable tag; Debian 6.1.176's "
    "copy_user_enhanced_fast_string has the alternative" },
  [NS_KCHANGE_X86_COPY_USER_INLINE] = {
    "577e6a7fd50d", "x86: inline the 'rep movs' in user copies for the FSRM case",
    "user copies: copy_user_generic runs an inline rep movsb on an FSRM CPU and calls "
    "rep_movs_alternative (its own loops under 64 bytes) on any other; "
    "copy_user_enhanced_fast_string and copy_user_short_string are gone",
    { "6.4-rc1", { NULL } },
    "Linus's x86-rep-insns branch with 427fda2c8a49 (\"x86: improve on the non-rep "
    "'copy_user' function\", rep_movs_alternative's loops) and 3639a535587d (STAC/CLAC "
    "moved to the callers), merged by a5624566431d on 24 Apr 2023 for 6.4-rc1; no stable "
    "took the series; Debian 6.12.118's _copy_to_iter has the inline rep movsb" },
  [NS_KCHANGE_X86_COPY_USER_ERMS] = {
    "47ee3f1dd93b", "x86: re-introduce support for ERMS copies for user space accesses",
    "user copies: rep_movs_alternative copies 64 bytes and more with one rep movsb on an "
    "ERMS CPU; before it (6.4-rc1 to rc3) with its unrolled loop of 64 bytes a round",
    { "6.4-rc4", { NULL } },
    "mainline after the for-6.4-rc3 merges (26-27 May 2023), after Eric Dumazet's report "
    "of the TCP regression on a Xeon without FSRM; Mateusz Guzik's later rep movsq change "
    "(ca96b162bfd2) quotes its diff; Debian 6.12.118's rep_movs_alternative has the ERMS "
    "alternative" },
  [NS_KCHANGE_X86_AMD_FSRS] = {
    "e046fe5a36a9", "x86: set FSRS automatically on AMD CPUs that have FSRM",
    "memset: init_amd marks an AMD CPU with FSRM as FSRS, which AMD's CPUID does not "
    "enumerate, so from 20f3337d350c its memset runs the inline rep stosb",
    { "6.4-rc1", { NULL } },
    "the same x86-rep-insns branch as 20f3337d350c, its tip on 19 Apr 2023 (kernel.org "
    "post-receive mail), merged by a5624566431d for 6.4-rc1; no stable took it; Debian "
    "6.12.118's init_amd tests FSRM and sets FSRS" },
};

/* The registered change id. */
const NsKernelChangeInfo *
ns_kernel_change_info (NsKernelChangeId id)
{
  g_return_val_if_fail ((guint) id < NS_KCHANGE_COUNT, NULL);
  return &changes[id];
}

/* TRUE if release lies in r: from its mainline release on, or in a listed stable series
 * from the release that took it on. */
static gboolean
releases_hold (const NsKernelChange *r, const char *release)
{
  return ns_kernel_release_cmp (release, r->mainline) >= 0 ||
         ns_kernel_stable_series_find (r->stables, G_N_ELEMENTS (r->stables), release) != NULL;
}

/* TRUE if release has change id and not its revert; see kchange.h. */
gboolean
ns_kernel_release_has (const char *release, NsKernelChangeId id)
{
  g_return_val_if_fail (release != NULL, FALSE);
  g_return_val_if_fail ((guint) id < NS_KCHANGE_COUNT, FALSE);

  return releases_hold (&changes[id].releases, release) &&
         !ns_kernel_release_reverted (release, id);
}

/* TRUE if release has the revert of change id; see kchange.h. */
gboolean
ns_kernel_release_reverted (const char *release, NsKernelChangeId id)
{
  const NsKernelChangeInfo *c;

  g_return_val_if_fail (release != NULL, FALSE);
  g_return_val_if_fail ((guint) id < NS_KCHANGE_COUNT, FALSE);

  c = &changes[id];
  return c->revert != NULL && releases_hold (&c->reverted, release);
}

/* Appends change id to list, one side's comma-separated entries. */
static void
append_change (GString *list, NsKernelChangeId id)
{
  const NsKernelChangeInfo *c = &changes[id];

  if (list->len > 0)
    g_string_append (list, ", ");
  if (c->commit != NULL)
    g_string_append_printf (list, "%s (%s)", c->commit, c->title);
  else
    g_string_append (list, c->title);
}

/* The changes of ids release has and base lacks, and the reverse; see kchange.h. */
char *
ns_kernel_changes_between (const char *base, const char *release,
                           const NsKernelChangeId *ids, guint n)
{
  g_autoptr (GString) has = g_string_new (NULL);
  g_autoptr (GString) lacks = g_string_new (NULL);

  g_return_val_if_fail (base != NULL && release != NULL, NULL);
  g_return_val_if_fail (ids != NULL || n == 0, NULL);

  for (guint i = 0; i < n; i++) {
    gboolean in_release, in_base;

    g_return_val_if_fail ((guint) ids[i] < NS_KCHANGE_COUNT, NULL);
    in_release = ns_kernel_release_has (release, ids[i]);
    in_base = ns_kernel_release_has (base, ids[i]);
    if (in_release && !in_base)
      append_change (has, ids[i]);
    else if (in_base && !in_release)
      append_change (lacks, ids[i]);
  }
  if (has->len == 0 && lacks->len == 0)
    return NULL;
  return g_strdup_printf ("%s%s%s%s%s", has->len ? "has " : "", has->str,
                          has->len && lacks->len ? "; " : "", lacks->len ? "lacks " : "",
                          lacks->str);
}

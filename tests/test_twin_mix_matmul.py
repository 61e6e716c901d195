"""The Matmul API in MIX mode on the twin (tests/kernels/mix_matmul.cpp): AIV clients and their AIC's server in
the forms of asc-devkit's A2 samples (matmul + bias + LeakyRelu through VECIN, IterateAll, Iterate<false> with
SetWorkspace, IterateAll<false> with WaitIterateAll, a 1:1 kernel), checked against float64 references with the
tiling the samples' host code produces replicated here; and each rule of the client/server pair as a planted fault
next to its passing counterpart."""
import ctypes
import os

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
SYSTEM_WORKSPACE = 16 << 20  # GetLibApiWorkSpaceSize() on A2


class TCubeTiling(ctypes.Structure):
    """AscendC::tiling::TCubeTiling (kernel_tiling/kernel_tiling.h): 50 packed int32 fields."""
    _pack_ = 1
    _fields_ = [(name, ctypes.c_int32) for name in (
        "usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN "
        "isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN singleBatchM "
        "singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C ALayoutInfoB ALayoutInfoS "
        "ALayoutInfoN ALayoutInfoG ALayoutInfoD BLayoutInfoB BLayoutInfoS BLayoutInfoN BLayoutInfoG BLayoutInfoD "
        "CLayoutInfoB CLayoutInfoS1 CLayoutInfoN CLayoutInfoG CLayoutInfoS2 BatchNum mxTypePara").split()]


def tiling(m, n, k, single_m, single_n, base_m, base_n, base_k, cores, bias=True, step_k=1):
    """A TCubeTiling of the shape the samples' MultiCoreMatmulTiling produces for them: the C split into
    single_m x single_n tiles (one per AIV), base blocks, one L1 group of step_k base K columns per operand,
    double-buffered in L1 and L0A/L0B."""
    assert single_m % base_m == 0 and single_n % base_n == 0
    return TCubeTiling(usedCoreNum=cores, M=m, N=n, Ka=k, Kb=k, singleCoreM=single_m, singleCoreN=single_n,
                       singleCoreK=k, baseM=base_m, baseN=base_n, baseK=base_k, depthA1=2 * step_k,
                       depthB1=2 * step_k, stepM=1, stepN=1, stepKa=step_k, stepKb=step_k, isBias=int(bias),
                       iterateOrder=0, dbL0A=2, dbL0B=2, dbL0C=1)


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([os.path.join(KERNELS, "mix_matmul.cpp")])


def operands(m, n, k, seed):
    g = torch.Generator().manual_seed(seed)
    a = (torch.rand(m, k, generator=g) * 2 - 1).half()
    b = (torch.rand(k, n, generator=g) * 2 - 1).half()
    bias = torch.rand(n, generator=g) * 2 - 1
    ref = a.double() @ b.double() + bias.double()
    return a, b, bias, ref


def workspace(extra=0):
    """The system workspace plus `extra` bytes of the kernel's own (float32: the async kernel reads it as float)."""
    return torch.empty((SYSTEM_WORKSPACE + extra) // 4, dtype=torch.float32)


def close(out, ref):
    torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-4)


# ---- the samples' forms, against float64 ------------------------------------------------------------------------

def leakyrelu_case(lib, kernel, t, seed=0, blocks=1, ws=None):
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    c = torch.full((t.M, t.N), float("nan"))
    stats = lib.launch(kernel, blocks, a=a, b=b, bias=bias, c=c, workspace=workspace() if ws is None else ws,
                       tiling=t)
    return c, torch.nn.functional.leaky_relu(ref, 0.001), stats


def test_matmul_leakyrelu_sample_shape(lib):
    # The sample: M = 512, N = 128, K = 128, one block (1 AIC + 2 AIVs), N split over the two AIVs, base
    # 128 x 64 x 128: each AIV fetches four blocks into VECIN and applies LeakyRelu there.
    t = tiling(512, 128, 128, 512, 64, 128, 64, 128, cores=2)
    c, ref, stats = leakyrelu_case(lib, "matmul_leakyrelu", t)
    close(c, ref)
    assert stats.mix_type == "MIX_AIC_1_2"
    assert [(x.core_type, x.block_idx) for x in stats.cores] == [("aic", 0), ("aiv", 0), ("aiv", 1)]
    aic, aiv0, aiv1 = stats.cores
    assert aic.cube_macs == 512 * 128 * 128 and aiv0.cube_macs == aiv1.cube_macs == 0
    assert aic.cube["mmad_calls"] == 8 and aic.ub_bytes_allocated == 0
    # Each AIV copies its four 128 x 64 float blocks from the workspace into UB, and writes them to C.
    for v in (aiv0, aiv1):
        assert v.mte2_calls == 4 and v.gm_bytes_read == 4 * 128 * 64 * 4
        assert v.gm_bytes_written == 512 * 64 * 4
        assert v.vector_element_ops["LeakyRelu"] == 4 * 128 * 64


@pytest.mark.parametrize("m,n,k,single_m,single_n,base_m,base_n,base_k,blocks", [
    (256, 128, 64, 128, 64, 32, 64, 32, 2),
    (200, 96, 80, 112, 48, 16, 48, 16, 2),  # the second row of tiles is 88 rows: SetTail, a last block of 8
    (96, 32, 256, 32, 16, 16, 16, 64, 3),
])
def test_matmul_leakyrelu_shapes_with_tails(lib, m, n, k, single_m, single_n, base_m, base_n, base_k, blocks):
    t = tiling(m, n, k, single_m, single_n, base_m, base_n, base_k, cores=2 * blocks, step_k=2)
    c, ref, _ = leakyrelu_case(lib, "matmul_leakyrelu", t, seed=m + n + k, blocks=blocks)
    close(c, ref)


def iterate_all_case(lib, kernel, t, blocks, seed=1, ws=None, c0=None):
    a, b, bias, ref = operands(t.M, t.N, t.Ka, seed)
    c = torch.full((t.M, t.N), float("nan")) if c0 is None else c0.clone()
    check = torch.zeros(4 * blocks * 8)
    stats = lib.launch(kernel, blocks, a=a, b=b, bias=bias, c=c, check=check,
                       workspace=workspace() if ws is None else ws, tiling=bytes(t))
    return c, ref, check, stats


@pytest.mark.parametrize("kernel", ["matmul_iterate_all", "matmul_async_iterate_all"])
def test_iterate_all_into_gm(lib, kernel):
    # No declared type: the Matmul object makes the kernel a 1:2 MIX kernel (two AIVs per AIC).
    t = tiling(192, 160, 96, 64, 96, 32, 32, 32, cores=6)
    c, ref, check, stats = iterate_all_case(lib, kernel, t, blocks=3)
    close(c, ref)
    assert stats.mix_type == "MIX_AIC_1_2" and len(stats.cores) == 9
    # Each AIV read back the first 8 floats of its tile after the AIC wrote them.
    for idx in range(6):
        m0, n0 = (idx % 3) * 64, (idx // 3) * 96
        torch.testing.assert_close(check[idx * 8:idx * 8 + 8], c[m0, n0:n0 + 8])
    assert sum(x.cube_macs for x in stats.cores if x.core_type == "aic") == 192 * 160 * 96


def test_iterate_all_one_to_one(lib):
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    c, ref, _, stats = iterate_all_case(lib, "matmul_iterate_all_1_1", t, blocks=2)
    close(c, ref)
    assert stats.mix_type == "MIX_AIC_1_1"
    assert [(x.core_type, x.block_idx) for x in stats.cores] == [("aic", 0), ("aiv", 0), ("aic", 1), ("aiv", 1)]


def test_async_iterate_into_vecin(lib):
    # Iterate<false>: the AIC writes every block into the user's workspace; GetTensorC<false> copies them.
    # 16 blocks per AIV: past the 14 the API waits for one by one.
    m, n, k = 256, 256, 64
    t = tiling(m, n, k, 128, 128, 32, 32, 32, cores=4, step_k=2)
    a, b, bias, ref = operands(m, n, k, 7)
    c = torch.full((m, n), float("nan"))
    stats = lib.launch("matmul_async_iterate", 2, a=a, b=b, bias=bias, c=c, workspace=workspace(m * n * 4),
                       tiling=bytes(t))
    close(c, ref)
    aivs = [x for x in stats.cores if x.core_type == "aiv"]
    assert all(v.mte2_calls == 16 for v in aivs)


# ---- which core is which ---------------------------------------------------------------------------------------

def test_core_identity_of_a_mix_kernel(lib):
    out = torch.zeros(3 * 3 * 16, dtype=torch.int32)
    lib.launch("core_identity", 3, out=out)
    got = out.view(-1, 16)[:, :8].tolist()
    for block in range(3):
        # GetBlockIdx, GetSubBlockIdx, GetSubBlockNum, GetTaskRatio, GetBlockNum, g_coreType, IS_AIV, IS_NOT_AIC
        assert got[3 * block] == [block, 0, 1, 1, 3, 1, 0, 0]
        for sub in range(2):
            assert got[3 * block + 1 + sub] == [2 * block + sub, sub, 2, 2, 3, 2, 1, 1]


# ---- planted faults; each one's passing counterpart is the kernel of the same form above -----------------------

SAMPLE = dict(m=512, n=128, k=128, single_m=512, single_n=64, base_m=128, base_n=64, base_k=128)


def sample_tiling():
    s = SAMPLE
    return tiling(s["m"], s["n"], s["k"], s["single_m"], s["single_n"], s["base_m"], s["base_n"], s["base_k"], 2)


@pytest.mark.parametrize("kernel,where,message", [
    ("leakyrelu_small_local", "AIV 0, Matmul::GetTensorC",
     r"GetTensorC's C holds at least baseM \* baseN elements.*16384 bytes, 32768 needed for a 128x64 block"),
    ("leakyrelu_not_sequential", "AIC 0, Matmul::GetTensorC",
     r"the block the cube writes fits the buffer it goes to.*without enSequentialWrite a block goes to its place in "
     r"a C of row length 128"),
    ("leakyrelu_get_before_iterate", "AIV 0, Matmul::GetTensorC", r"GetTensorC comes after Iterate"),
    ("leakyrelu_iterate_twice", "AIV 0, Matmul::Iterate",
     r"GetTensorC fetches the block of each Iterate<true> before the next Iterate"),
    ("leakyrelu_aic_calls", "AIC 0, Matmul::SetOrgShape",
     r"in a MIX kernel the Matmul object is driven from the AIVs.*before REGIST_MATMUL_OBJ"),
    ("leakyrelu_no_end", "AIV 0, Matmul::End", r"Matmul::End is called once the Matmul object's work is done"),
    ("leakyrelu_no_set_tensor", "AIV 0, Matmul::Iterate",
     r"SetTensorA and SetTensorB come before Iterate'.*no walk started"),
    ("leakyrelu_async_get", "AIV 0, Matmul::GetTensorC",
     r"GetTensorC is synchronous like the Iterate before it'.*GetTensorC<false> after Iterate<true>"),
    ("leakyrelu_workspace_get", r"AIV 0, Matmul::GetTensorC<false>\(\)",
     r"GetTensorC<false>\(\) returns the next block of an Iterate<false> walk'.*no asynchronous walk"),
    ("leakyrelu_atomic_local", "AIV 0, Matmul::GetTensorC",
     r"GetTensorC into a LocalTensor does not accumulate \(enAtomic = 0\)'.*enAtomic = 1"),
    ("leakyrelu_async_all_local", r"AIV 0, Matmul::IterateAll\(LocalTensor\)",
     r"IterateAll into a LocalTensor is synchronous \(IterateAll<true>\)'"),
    ("leakyrelu_partial_sum", "AIV 0, Matmul::Iterate",
     r"the twin does not model enPartialSum \(accumulating into L0C across Iterate calls\)'"),
    ("leakyrelu_init_first", "AIV 0, Matmul::Init",
     r"a MIX kernel's Matmul object is registered by REGIST_MATMUL_OBJ'.*Init before REGIST_MATMUL_OBJ"),
])
def test_client_rules(lib, kernel, where, message):
    with pytest.raises(KernelRuleViolation, match=where + ".*" + message):
        leakyrelu_case(lib, kernel, sample_tiling())
    c, ref, _ = leakyrelu_case(lib, "matmul_leakyrelu", sample_tiling())  # the counterpart
    close(c, ref)


def test_system_workspace_rules(lib):
    t = sample_tiling()
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, REGIST_MATMUL_OBJ: broke the rule 'the system workspace "
                                                  r"holds GetLibApiWorkSpaceSize\(\) bytes.*1048576 bytes from the "
                                                  r"workspace address on, 16777216 needed"):
        leakyrelu_case(lib, "matmul_leakyrelu", t, ws=torch.empty(1 << 20, dtype=torch.uint8))
    with pytest.raises(KernelRuleViolation, match=r"REGIST_MATMUL_OBJ takes the system workspace"):
        leakyrelu_case(lib, "matmul_leakyrelu", t, ws=torch.empty(0, dtype=torch.uint8))


def test_blocks_are_ai_cores(lib):
    # A 1:2 MIX launch of blockDim blocks runs blockDim AICs: at most the platform's 24 (910B2).
    with pytest.raises(KernelRuleViolation, match=r"a kernel on the cube cores launches at most aicNum blocks.*"
                                                  r"blockDim 25 of a MIX_AIC_1_2 kernel"):
        leakyrelu_case(lib, "matmul_leakyrelu", sample_tiling(), blocks=25)


def test_server_checks_the_tiling_against_the_aic(lib):
    # The AIC's cube core checks the tiling the clients send: L1 cannot hold 8 x 128 x 128 halves of A and B.
    t = sample_tiling()
    t.depthA1 = t.depthB1 = 16
    t.stepKa = t.stepKb = 8
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, REGIST_MATMUL_OBJ/Matmul::Init: broke the rule 'A1 \+ B1 "
                                                  r"\+ bias fit in the L1"):
        leakyrelu_case(lib, "matmul_leakyrelu", t)
    # The AIV's client checks the tiling it registers before it sends it.
    t = sample_tiling()
    t.baseN = 0
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::Init: broke the rule 'TCubeTiling sizes are "
                                                  r"positive'.*base 128x0"):
        leakyrelu_case(lib, "matmul_leakyrelu", t)


def test_async_rules(lib):
    m, n, k = 128, 128, 64
    t = tiling(m, n, k, 64, 128, 32, 32, 32, cores=2)
    a, b, bias, _ = operands(m, n, k, 3)
    args = dict(a=a, b=b, bias=bias, c=torch.zeros(m, n), workspace=workspace(m * n * 4), tiling=bytes(t))
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::Iterate: broke the rule 'Iterate<false> caches the "
                                                  r"blocks in a GM workspace set with SetWorkspace"):
        lib.launch("async_iterate_without_workspace", 1, **args)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::GetTensorC: broke the rule 'GetTensorC after "
                                                  r"Iterate<false> fetches each of the walk's blocks once'.*the walk "
                                                  r"has 8 block\(s\), all fetched"):
        lib.launch("async_get_past_the_end", 1, **args)
    # Each AIV's walk has 8 blocks of 32 x 32 floats; its SetWorkspace buffer holds 2.
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, Matmul::Iterate \(AIC\): broke the rule 'the SetWorkspace "
                                                  r"buffer holds every block of an Iterate<false>.*block 2 goes to bytes "
                                                  r"\[8192, 12288\) of a workspace of 8192 bytes"):
        lib.launch("async_small_workspace", 1, **args)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::GetTensorC: broke the rule 'GetTensorC into GM "
                                                  r"follows an Iterate<true> \(A2's client.*the walk was "
                                                  r"started by Iterate<false>"):
        lib.launch("async_get_into_gm", 1, **args)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::SetWorkspace: broke the rule 'SetWorkspace takes a "
                                                  r"GM buffer with a size.*the GlobalTensor has no size"):
        lib.launch("async_unsized_workspace", 1, **args)
    c, ref = torch.full((m, n), float("nan")), operands(m, n, k, 3)[3]  # the counterpart, against float64
    lib.launch("matmul_async_iterate", 1, **dict(args, c=c))
    close(c, ref)


def test_iterate_all_async_rules(lib):
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    with pytest.raises(KernelRuleViolation, match=r"WaitIterateAll waits for an IterateAll<false>\(\.\.\., "
                                                  r"waitIterateAll = true\)"):
        iterate_all_case(lib, "async_all_without_wait_flag", t, blocks=1)
    # Reading C before WaitIterateAll: the AIC's writes and the AIV's read are not ordered.
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, DataCopy/GetValue from GM: broke the rule 'a core reads GM "
                                                  r"another core writes in the same launch only after SyncAll'.*AIV 0 "
                                                  r"read bytes \[0, 32\) of GM buffer 'c', which AIC 0 wrote"):
        iterate_all_case(lib, "async_all_read_before_wait", t, blocks=1)
    c, ref, _, _ = iterate_all_case(lib, "matmul_async_iterate_all", t, blocks=1)
    close(c, ref)


def test_iterate_all_atomic_add_and_max(lib):
    # enAtomic = 1 adds C into what GM holds (fresh random values), 2 keeps the larger; from the AIC, as its Fixpipe
    # does under SetAtomicAdd/SetAtomicMax.
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    c0 = torch.randn(128, 64, generator=torch.Generator().manual_seed(7)) * 4
    c, ref, _, _ = iterate_all_case(lib, "iterate_all_atomic", t, blocks=1, c0=c0)
    close(c, c0.double() + ref)
    c, ref, _, _ = iterate_all_case(lib, "iterate_all_atomic_max", t, blocks=1, c0=c0)
    close(c, torch.maximum(c0.double(), ref))


def test_iterate_all_walk_rules(lib):
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::IterateAll: broke the rule 'IterateAll starts a "
                                                  r"walk: SetTensorA/SetTensorB come before each one'"):
        iterate_all_case(lib, "iterate_all_twice", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::WaitIterateAll: broke the rule 'WaitIterateAll "
                                                  r"follows an asynchronous IterateAll<false>.*was synchronous"):
        iterate_all_case(lib, "wait_after_sync_iterate_all", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::Iterate: broke the rule 'Iterate<false> is for C "
                                                  r"in UB \(VECIN/VECCALC/VECOUT\)'.*C is at GM"):
        iterate_all_case(lib, "async_iterate_c_in_gm", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, Matmul::IterateAll \(AIC\): broke the rule 'enAtomic is 0 "
                                                  r"\(off\), 1 \(AtomicAdd\), 2 \(AtomicMax\) or 3 \(AtomicMin\)'.*enAtomic = 4"):
        iterate_all_case(lib, "iterate_all_atomic_bad", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::IterateAll: broke the rule 'fakeMsg is for the "
                                                  r"IBShare and IntraBlockPartSum configurations \(not modelled\)'"):
        iterate_all_case(lib, "iterate_all_fake_msg", t, blocks=1)
    c, ref, _, _ = iterate_all_case(lib, "matmul_iterate_all", t, blocks=1)  # the counterpart
    close(c, ref)


def test_matmul_object_count_rules(lib):
    # Four objects on the AIVs and the AIC (the API's most), the AIVs computing with the fourth: the messages
    # reach the object they name.
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    c, ref, _, _ = iterate_all_case(lib, "four_matmul_objects", t, blocks=1, seed=4)
    close(c, ref)
    with pytest.raises(KernelRuleViolation, match=r"REGIST_MATMUL_OBJ: broke the rule 'a kernel registers 1 to 4 "
                                                  r"Matmul objects \(REGIST_MATMUL_OBJ docs\)'.*5 objects"):
        iterate_all_case(lib, "five_matmul_objects", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"REGIST_MATMUL_OBJ \(AIC server\): broke the rule 'the AIVs and "
                                                  r"the AIC register the same Matmul objects'.*a message for object 1, "
                                                  r"the AIC registered 1"):
        iterate_all_case(lib, "aic_registers_fewer_objects", t, blocks=1)


def test_launch_model_rules(lib):
    t = tiling(128, 64, 64, 64, 64, 32, 32, 32, cores=2)
    # An AIV that returns before REGIST_MATMUL_OBJ never tells the AIC it has ended: the AIC waits forever.
    with pytest.raises(KernelRuleViolation, match=r"AIC 0, REGIST_MATMUL_OBJ's Matmul server.*broke the rule 'every "
                                                  r"wait of a core is released by another core'.*returned: AIV 0, AIV 1 "
                                                  r"\(without reaching REGIST_MATMUL_OBJ.*on the NPU the kernel hangs"):
        leakyrelu_case(lib, "aiv_skips_registration", sample_tiling())
    with pytest.raises(KernelRuleViolation, match=r"without ASCENDC_CUBE_ONLY the Matmul object is a MIX kernel's AIV "
                                                  r"client.*the kernel declared KERNEL_TYPE_AIV_ONLY"):
        iterate_all_case(lib, "matmul_in_aiv_only_kernel", t, blocks=1)
    with pytest.raises(KernelRuleViolation, match=r"core 0, KERNEL_TASK_TYPE_DEFAULT: broke the rule 'on the twin a "
                                                  r"kernel's type is known before the core writes GM.*already wrote GM"):
        iterate_all_case(lib, "type_declared_after_a_write", t, blocks=1)


THREADS_SCRIPT = r"""
import sys, torch, ascend_ext
sys.path.insert(0, sys.argv[2])
import test_twin_mix_matmul as t
lib = ascend_ext.twin.compile_kernels([sys.argv[1]])
tl = t.tiling(256, 256, 64, 128, 128, 32, 32, 32, cores=4, step_k=2)
a, b, bias, ref = t.operands(256, 256, 64, 11)
c = torch.zeros(256, 256)
lib.launch("matmul_async_iterate", 2, a=a, b=b, bias=bias, c=c, workspace=t.workspace(256 * 256 * 4),
           tiling=bytes(tl))
c2, ref2, _ = t.leakyrelu_case(lib, "matmul_leakyrelu", t.sample_tiling())
print(float((c.double() - ref).abs().max()), float((c2.double() - ref2).abs().max()), float(c.sum()), float(c2.sum()))
"""


def test_clients_and_servers_wait_for_each_other_on_one_thread():
    # The AIVs wait for the AIC's notifications and the AIC for their messages: on a pool of one thread each
    # wait suspends the core and the thread runs the others. Results do not depend on the thread count.
    import subprocess
    import sys
    source = os.path.join(KERNELS, "mix_matmul.cpp")
    outputs = set()
    for threads in ("1", "2"):
        env = dict(os.environ, ASCEND_TWIN_THREADS=threads)
        proc = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, source, os.path.dirname(__file__)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    worst, worst_relu = (float(v) for v in outputs.pop().split()[:2])
    assert worst < 1e-4 and worst_relu < 1e-4


def dense_blocks(ref, t, order_n):
    """The blocks of each AIV's tile in walk order, each stored densely as baseM x baseN floats."""
    out = []
    m_cores = -(-t.M // t.singleCoreM)
    for idx in range(t.usedCoreNum):
        m0, n0 = (idx % m_cores) * t.singleCoreM, (idx // m_cores) * t.singleCoreN
        rows, cols = -(-t.singleCoreM // t.baseM), -(-t.singleCoreN // t.baseN)
        order = [(r, c) for r in range(rows) for c in range(cols)] if order_n else \
            [(r, c) for c in range(cols) for r in range(rows)]
        for r, c in order:
            blk = ref[m0 + r * t.baseM:m0 + (r + 1) * t.baseM, n0 + c * t.baseN:n0 + (c + 1) * t.baseN]
            out.append(blk.reshape(-1))
    return torch.cat(out)


@pytest.mark.parametrize("kernel", ["blocks_in_walk_order", "blocks_in_walk_order_async_get"])
def test_config_iterate_order_and_sequential_gm_output(lib, kernel):
    # GetNormalConfig(..., IterateOrder::ORDER_N): Iterate walks along N first whatever the tiling says. After
    # Iterate<true>, GetTensorC<false> into GM is valid on A2 (its client asserts only the Iterate's mode).
    t = tiling(128, 128, 64, 64, 128, 32, 32, 32, cores=2)
    assert t.iterateOrder == 0
    a, b, bias, ref = operands(128, 128, 64, 5)
    blocks = torch.full((2 * 8 * 32 * 32,), float("nan"))
    lib.launch(kernel, 1, a=a, b=b, bias=bias, blocks=blocks, workspace=workspace(), tiling=bytes(t))
    close(blocks, dense_blocks(ref, t, order_n=True))


def test_get_tensor_c_after_the_walk(lib):
    # A GetTensorC into GM after Iterate returned false: no block to fetch. The counterpart is the test above.
    t = tiling(128, 128, 64, 64, 128, 32, 32, 32, cores=2)
    a, b, bias, _ = operands(128, 128, 64, 5)
    with pytest.raises(KernelRuleViolation, match=r"AIV 0, Matmul::GetTensorC: broke the rule 'each GetTensorC fetches "
                                                  r"the block of an Iterate that returned true'"):
        lib.launch("walk_get_after_the_end", 1, a=a, b=b, bias=bias, blocks=torch.zeros(2 * 8 * 32 * 32),
                   workspace=workspace(), tiling=bytes(t))


def test_async_get_tensor_c_forms(lib):
    t = tiling(128, 128, 64, 64, 128, 32, 32, 32, cores=2)
    a, b, bias, ref = operands(128, 128, 64, 6)
    blocks = torch.full((2 * 8 * 32 * 32,), float("nan"))
    lib.launch("async_get_forms", 1, a=a, b=b, bias=bias, blocks=blocks, workspace=workspace(2 * 8 * 32 * 32 * 4),
               tiling=bytes(t))
    close(blocks, dense_blocks(ref, t, order_n=False))


def test_aic_service_order_is_not_an_order_between_its_aivs(lib):
    # Each AIV's IterateAll is a message to the block's AIC, served in the order the messages arrive: the program
    # does not fix that order, so it orders nothing between the two AIVs. Their copies of 8 floats to the same bytes
    # are a race in every launch, whichever AIV the AIC served first (before, the verdict followed the threads'
    # interleaving); the same kernel with a slot per AIV runs clean in every launch, against float64.
    t = tiling(128, 96, 64, 64, 96, 32, 32, 32, cores=2)
    for _ in range(12):
        with pytest.raises(KernelRuleViolation, match="no two cores write the same GM bytes"):
            iterate_all_case(lib, "iterate_all_shared_check", t, blocks=1)
    for seed in range(12):
        c, ref, check, _ = iterate_all_case(lib, "matmul_iterate_all", t, blocks=1, seed=seed)
        close(c, ref)
        torch.testing.assert_close(check[8:16], c[64, :8])

"""The utility and form tail of the Ascend C basic API on the twin, each with its rules: kernel entries
declared through macros and with up to 16 parameters, host <<<>>> launches in kernel files, the scalar
helpers and constants, AscendC::Std, static tensors and the LocalTensor operator forms, GatherMask, Copy
(UB -> UB) and TBufPool. References are computed independently in Python (float64 where there is
arithmetic)."""
import ctypes
import os
import struct
import subprocess

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelCompileError, KernelRuleViolation
from ascend_ext.twin_kernels import find_entries

KERNELS = os.path.join(os.path.dirname(__file__), "kernels")
ENTRY_FORMS = os.path.join(KERNELS, "entry_forms.cpp")
TAIL = os.path.join(KERNELS, "utility_tail.cpp")


@pytest.fixture(scope="module")
def forms():
    return ascend_ext.twin.compile_kernels([ENTRY_FORMS])


@pytest.fixture(scope="module")
def tail():
    return ascend_ext.twin.compile_kernels([TAIL])


# ---- entry forms ----------------------------------------------------------------------------------------------

def test_entries_declared_through_a_macro_are_found():
    entries = find_entries(ENTRY_FORMS)
    assert sorted(entries) == ["axpb_float", "axpb_half", "sum15", "twice_float"]
    assert entries["axpb_float"] == ["x", "n", "unused0", "pad0", "y", "a", "pad1", "pad2", "unused1", "pad3", "b",
                                     "pad4", "pad5", "pad6"]


@pytest.mark.parametrize("kernel,dtype", [("axpb_float", torch.float32), ("axpb_half", torch.float16)])
def test_fourteen_parameter_entries_run(forms, kernel, dtype):
    n = 64
    x = (torch.rand(n, dtype=torch.float64) * 4 - 2).to(dtype)
    y = torch.zeros(n, dtype=dtype)
    forms.launch(kernel, 1, x=x, n=n, unused0=None, pad0=0, y=y, a=1.5, pad1=0, pad2=0, unused1=None, pad3=0, b=-0.25,
                 pad4=0, pad5=0, pad6=0)
    expect = x.double() * 1.5 - 0.25
    tol = 2e-3 if dtype == torch.float16 else 1e-6
    torch.testing.assert_close(y.double(), expect, rtol=tol, atol=tol)


def test_sixteen_gm_arguments_run(forms):
    ins = [torch.randn(8) for _ in range(15)]
    out = torch.zeros(8)
    forms.launch("sum15", 1, **{f"in{i}": t for i, t in enumerate(ins)}, out=out)
    torch.testing.assert_close(out.double(), torch.stack(ins).double().sum(0), rtol=1e-6, atol=1e-6)


def test_template_entry_qualified_before_global_is_not_exported(forms):
    # `template <...> __vector__ __global__ void twice_tpl(...)`: the template is left out of the entries (exporting
    # it uninstantiated would not compile); the extern "C" entry instantiating it runs.
    assert "twice_tpl" not in find_entries(ENTRY_FORMS)
    x = torch.randn(8)
    y = x.clone()
    forms.launch("twice_float", 1, x=y)
    torch.testing.assert_close(y.double(), 2 * x.double(), rtol=0, atol=0)


def test_seventeen_parameters_do_not_compile():
    with pytest.raises(KernelCompileError, match="the twin launches kernels of up to 16 parameters"):
        ascend_ext.twin.compile_kernels([ENTRY_FORMS], defines={"FAULT_SEVENTEEN": None})


def test_host_launch_syntax_compiles_and_raises_if_called(forms):
    # The <<<>>> launch in the file's host code compiles; calling it raises (the twin's launcher runs kernels).
    assert ctypes.CDLL(forms.path).entry_forms_host_launch() == 1


# ---- scalar helpers, constants, AscendC::Std ------------------------------------------------------------------

def test_helpers_and_constants_have_a2_values(tail):
    out = torch.zeros(16, dtype=torch.int32)
    tail.launch("utils_values", 1, out=out)
    assert out.tolist() == [4, 64, 4, 3, 0, -2, 7, 3, 24, 512 * 1024 - 128, 192 * 1024, 32, 128 * 1024, 1, 5, 64]


def test_div_ceil_runs(tail):
    out = torch.zeros(1, dtype=torch.int32)
    tail.launch("div_ceil_by", 1, out=out, tiling=struct.pack("<II", 1000, 7))
    assert out.item() == 143


def test_div_ceil_by_zero_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"DivCeil: broke the rule 'the divisor is not 0'"):
        tail.launch("div_ceil_by", 1, out=torch.zeros(1, dtype=torch.int32), tiling=struct.pack("<II", 1000, 0))


# ---- static tensors and operator forms ------------------------------------------------------------------------

def static_tiling(n, a=0, b=1024, c=2048, m=4096):
    return struct.pack("<5I", n, a, b, c, m)


def test_static_tensors_and_operator_forms(tail):
    n = 256
    a = torch.rand(n) + 0.5
    b = torch.rand(n) * 2 - 1
    c = torch.zeros(n)
    mask = torch.zeros(n // 8, dtype=torch.uint8)
    tail.launch("static_operators", 1, a=a, b=b, c=c, mask=mask, tiling=static_tiling(n))
    ad, bd = a.double(), b.double()
    # Each operator rounds to float32, as the instructions do.
    expect = (((a + b) * a - b) / a).double()
    torch.testing.assert_close(c.double(), expect, rtol=1e-6, atol=1e-6)
    bits = (ad < bd).to(torch.uint8).view(-1, 8)
    packed = (bits * torch.tensor([1, 2, 4, 8, 16, 32, 64, 128], dtype=torch.uint8)).sum(1).to(torch.uint8)
    assert torch.equal(mask, packed)


def test_static_tensor_address_not_32_byte_aligned_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a static tensor's address is 32-byte aligned': "
                                                  r"addr 1040"):
        tail.launch("static_operators", 1, a=torch.ones(256), b=torch.ones(256), c=torch.zeros(256),
                    mask=torch.zeros(32, dtype=torch.uint8), tiling=static_tiling(256, b=1040))


def test_static_tensor_past_the_ub_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a static tensor lies inside its memory': 1024 "
                                                  r"bytes at UB address 196096"):
        tail.launch("static_operators", 1, a=torch.ones(256), b=torch.ones(256), c=torch.zeros(256),
                    mask=torch.zeros(32, dtype=torch.uint8), tiling=static_tiling(256, c=196096))


# ---- GatherMask ---------------------------------------------------------------------------------------------

def gather_tiling(n, builtin=0, reduce=0, mask=0, repeat=1, blk=1, rep=8, rep1=0, dst=None):
    return struct.pack("<9I", n, builtin, reduce, mask, repeat, blk, rep, rep1, dst if dst is not None else n)


def gather_reference(src, pattern_bits, builtin, reduce, mask, repeat, blk, rep, rep1):
    """GatherMask over float32 as the docs define it for A2: a repeat is 8 blocks of 8 floats (counter mode:
    `mask` lanes), lane j of repeat r at (r * rep + j // 8 * blk) * 8 + j % 8; the pattern bit for lane j of
    repeat r is bit j of the pattern read from r * rep1 * 8 words on (built-in patterns: fixed)."""
    kept = []
    lanes = mask if reduce else 64
    for r in range(repeat):
        for j in range(lanes):
            if builtin:
                take = {1: j % 2 == 0, 2: j % 2 == 1, 7: True}.get(builtin, j % 4 == builtin - 3)
            else:
                word = r * rep1 * 8 + j // 32
                take = (int(pattern_bits[word]) >> (j % 32)) & 1
            if take:
                kept.append(float(src[(r * rep + j // 8 * blk) * 8 + j % 8]))
    return kept


@pytest.mark.parametrize("builtin", range(1, 8))
def test_gather_mask_built_in_patterns(tail, builtin):
    n = 256
    src = torch.randn(n)
    out = torch.zeros(n)
    count = torch.zeros(2, dtype=torch.int64)
    tail.launch("gather_mask_f32", 1, src=src, pattern=torch.zeros(64, dtype=torch.int32), out=out, count=count,
                tiling=gather_tiling(n, builtin=builtin, repeat=4))
    kept = gather_reference(src, None, builtin, 0, 0, 4, 1, 8, 0)
    assert count.tolist() == [len(kept), len(kept)]
    assert out[:len(kept)].tolist() == kept


@pytest.mark.parametrize("reduce,mask,repeat,blk,rep,rep1", [(0, 0, 3, 1, 8, 1), (1, 70, 2, 1, 8, 1),
                                                             (1, 200, 1, 1, 0, 0), (0, 0, 2, 2, 16, 0)])
def test_gather_mask_pattern_tensor(tail, reduce, mask, repeat, blk, rep, rep1):
    n = 512
    src = torch.randn(n)
    pattern = torch.randint(-2**31, 2**31 - 1, (64,), dtype=torch.int32)
    out = torch.zeros(n)
    count = torch.zeros(2, dtype=torch.int64)
    tail.launch("gather_mask_f32", 1, src=src, pattern=pattern, out=out, count=count,
                tiling=gather_tiling(n, 0, reduce, mask, repeat, blk, rep, rep1))
    kept = gather_reference(src, pattern.view(torch.int32).numpy().astype("uint32"), 0, reduce, mask, repeat, blk,
                            rep, rep1)
    assert count[0].item() == len(kept)
    assert out[:len(kept)].tolist() == kept


def test_gather_mask_pattern_outside_1_to_7_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"GatherMask: broke the rule 'a built-in src1Pattern is 1..7': "
                                                  r"src1Pattern 8"):
        tail.launch("gather_mask_f32", 1, src=torch.zeros(256), pattern=torch.zeros(64, dtype=torch.int32),
                    out=torch.zeros(256), count=torch.zeros(2, dtype=torch.int64), tiling=gather_tiling(256, builtin=8))


def test_gather_mask_counter_mode_with_mask_0_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"in counter mode \(reduceMode true\) mask is 1..2\^32-1"):
        tail.launch("gather_mask_f32", 1, src=torch.zeros(256), pattern=torch.zeros(64, dtype=torch.int32),
                    out=torch.zeros(256), count=torch.zeros(2, dtype=torch.int64),
                    tiling=gather_tiling(256, reduce=1, mask=0))


def test_gather_mask_kept_elements_past_dst_are_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"operand 'dst': element 65 kept, the tensor holds 64"):
        tail.launch("gather_mask_f32", 1, src=torch.zeros(256), pattern=torch.zeros(64, dtype=torch.int32),
                    out=torch.zeros(64), count=torch.zeros(2, dtype=torch.int64),
                    tiling=gather_tiling(256, builtin=7, repeat=2, dst=64))


def test_gather_mask_src0_read_past_the_tensor_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"operand 'src0': repeat 4, lane 0 is element 256"):
        tail.launch("gather_mask_f32", 1, src=torch.zeros(256), pattern=torch.zeros(64, dtype=torch.int32),
                    out=torch.zeros(512), count=torch.zeros(2, dtype=torch.int64),
                    tiling=gather_tiling(256, builtin=1, repeat=5, dst=512))


# ---- Copy -----------------------------------------------------------------------------------------------------

def copy_reference(src, n, mask, repeat, dst_blk, src_blk, dst_rep, src_rep):
    dst = torch.zeros(n, dtype=torch.float64)
    for r in range(repeat):
        for j in range(mask):
            d = (r * dst_rep + j // 16 * dst_blk) * 16 + j % 16
            s = (r * src_rep + j // 16 * src_blk) * 16 + j % 16
            dst[d] = float(src[s])
    return dst


@pytest.mark.parametrize("mask,repeat,dst_blk,src_blk,dst_rep,src_rep",
                         [(128, 4, 1, 1, 8, 8), (16, 8, 1, 1, 1, 8), (100, 2, 2, 1, 16, 8), (128, 3, 1, 0, 8, 1)])
def test_copy_ub_to_ub_with_strides(tail, mask, repeat, dst_blk, src_blk, dst_rep, src_rep):
    n = 1024
    src = torch.randn(n).to(torch.float16)
    dst = torch.zeros(n, dtype=torch.float16)
    tail.launch("copy_half", 1, src=src, dst=dst,
                tiling=struct.pack("<7I", n, mask, repeat, dst_blk, src_blk, dst_rep, src_rep))
    assert torch.equal(dst.double(), copy_reference(src, n, mask, repeat, dst_blk, src_blk, dst_rep, src_rep))


def test_copy_repeat_size_past_4095_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"Copy: broke the rule 'Copy's dstRepeatSize and srcRepeatSize are "
                                                  r"0..4095'"):
        tail.launch("copy_half", 1, src=torch.zeros(1024, dtype=torch.float16),
                    dst=torch.zeros(1024, dtype=torch.float16), tiling=struct.pack("<7I", 1024, 128, 1, 1, 1, 8, 4096))


def test_copy_past_the_destination_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"operand 'dst': repeat 8, lane 0 is element 1024"):
        tail.launch("copy_half", 1, src=torch.zeros(1024, dtype=torch.float16),
                    dst=torch.zeros(1024, dtype=torch.float16), tiling=struct.pack("<7I", 1024, 128, 9, 1, 1, 8, 1))


# ---- TBufPool -------------------------------------------------------------------------------------------------

def pool_run(tail, reset=1, queue_bytes=1024, shared=2048, fault=0):
    a, b = torch.randn(512), torch.randn(512)
    out = torch.zeros(512)
    tail.launch("pool_stages", 1, a=a, b=b, out=out, tiling=struct.pack("<4I", reset, queue_bytes, shared, fault))
    return a, b, out


def test_pools_sharing_memory_take_turns(tail):
    a, b, out = pool_run(tail)
    torch.testing.assert_close(out[:256], a[:256] + b[:256], rtol=0, atol=0)
    torch.testing.assert_close(out[256:], a[256:] - b[256:], rtol=0, atol=0)


def test_pools_sharing_memory_without_reset_race(tail):
    # Without first.Reset() nothing orders the first pool's copy-out (MTE3) before the second pool's Sub (V)
    # writing the same bytes.
    with pytest.raises(KernelRuleViolation, match=r"Sub: broke the rule 'accesses of different pipes to the same UB "
                                                  r"bytes are ordered by synchronisation': WAR hazard: 'Sub' on pipe V "
                                                  r"writes UB bytes \[2048, 3072\), which 'DataCopy\(UB->GM\)' on pipe "
                                                  r"MTE3 read"):
        pool_run(tail, reset=0)


def test_pool_buffer_past_the_pool_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"TBufPool::InitBuffer: broke the rule 'a TBufPool's buffers fit in "
                                                  r"the pool'"):
        pool_run(tail, queue_bytes=1536)


@pytest.mark.parametrize("fault,message", [
    (1, r"TBufPool::InitBuffer: broke the rule 'a TBufPool hands out at most bufIDSize buffers': the pool's "
        r"bufIDSize is 1; 1 buffers exist, 1 more requested"),
    (2, r"TBufPool::InitBufPool: broke the rule 'a TBufPool's sub-pools fit in the pool': a pool of 6144 bytes "
        r"asked with 3072 of 8192 bytes handed out"),
    (3, r"TBufPool::InitBuffer: broke the rule 'a TBufPool is set up by TPipe::InitBufPool or "
        r"TBufPool::InitBufPool before use': this pool has no memory")])
def test_pool_set_up_faults_are_violations(tail, fault, message):
    # the passing counterpart is test_pools_sharing_memory_take_turns: the same kernel with fault 0
    with pytest.raises(KernelRuleViolation, match=message):
        pool_run(tail, fault=fault)


def test_shared_pool_longer_than_its_partner_is_a_violation(tail):
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a pool sharing another pool's memory is no longer "
                                                  r"than it': 4096 bytes asked, the shared pool holds 2048"):
        pool_run(tail, shared=4096)


# ---- CANN's individual headers, ListTensorDesc, MulAddDst -----------------------------------------------------

HEADERS_TAIL = os.path.join(KERNELS, "headers_tail.cpp")
FORWARDING_HEADERS = ["kernel_operator_intf.h", "kernel_basic_intf.h", "kernel_vec_intf.h", "kernel_cube_intf.h",
                      "kernel_operator_list_tensor_intf.h", "kernel_type.h", "kernel_tensor.h", "kernel_tensor_impl.h",
                      "kernel_tpipe.h", "kernel_tpipe_impl.h", "kernel_common.h", "kernel_utils.h", "kernel_event.h",
                      "std/algorithm.h", "std/cmath.h", "std/tuple.h", "std/type_traits.h", "std/utility.h"]


@pytest.fixture(scope="module")
def headers():
    return ascend_ext.twin.compile_kernels([HEADERS_TAIL])


@pytest.mark.parametrize("header", FORWARDING_HEADERS)
def test_cann_header_stands_alone(tmp_path, header):
    from ascend_ext import twin_kernels
    unit = tmp_path / "unit.cpp"
    unit.write_text(f'#include "{header}"\n#include "{header}"\n')
    cxx = os.environ.get("CXX", "g++")
    run = subprocess.run([cxx, *twin_kernels._sdk_flags("-O0"), "-fsyntax-only", str(unit)], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr


def test_header_values(headers):
    out = torch.zeros(10, dtype=torch.int32)
    headers.launch("header_values", 1, out=out)
    # kernel_type.h: DT_FLOAT 0, DT_FLOAT16 1, DT_INT32 3, DT_BF16 27, FORMAT_NCHW 0, FORMAT_ND 2; 32-byte blocks
    assert out.tolist() == [0, 1, 3, 27, 0, 2, 32, 9, 1, 4]


def list_tiling(n, use_desc=0, bad_index=0xffffffff, length=0xffffffff, shape_size=0xffffffff,
                last_shape=0xffffffff):
    return struct.pack("<6I", n, use_desc, bad_index, length, shape_size, last_shape)


def list_buffer(tensors, header_words=None, shapeless=False):
    """The op framework's list layout in GM, written independently of the harness: word 0 the byte offset of
    the data pointers, per tensor (index << 32 | dim) and its shape, then the pointers; the tensors' data
    follows in the same buffer (GM the launch holds), each at a 32-byte boundary."""
    words = [0]
    if shapeless:  # dim 0: one descriptor word, then 0xffffffff, for the whole list (of one tensor here)
        assert len(tensors) == 1
        words += [0, 0xffffffff]
    else:
        for i, t in enumerate(tensors):
            words += [(i << 32) | t.dim(), *t.shape]
    words[0] = 8 * len(words)
    at, offsets = (8 * (len(words) + len(tensors)) + 31) // 32 * 32, []
    for t in tensors:
        offsets.append(at)
        at = (at + 4 * t.numel() + 31) // 32 * 32
    buf = torch.zeros(at // 8, dtype=torch.int64)
    words += [buf.data_ptr() + off for off in offsets]
    if header_words:
        words[:len(header_words)] = header_words
    buf[:len(words)] = torch.tensor(words, dtype=torch.int64)
    raw = buf.view(torch.float32)
    for t, off in zip(tensors, offsets):
        raw[off // 4:off // 4 + t.numel()] = t.reshape(-1)
    return ascend_ext.twin.UntypedGm(buf)  # the list holds words and floats


@pytest.mark.parametrize("use_desc", [0, 1])
def test_list_tensor_sums_the_list(headers, use_desc):
    n = 64
    # A2's decoder reads every descriptor as the first one's size: a list's tensors share their dim
    tensors = [torch.randn(2, n // 2), torch.randn(4, n // 4), torch.randn(8, n // 8)]
    out, meta = torch.zeros(n), torch.full((33,), -1, dtype=torch.int32)
    headers.launch("list_sum", 1, list=list_buffer(tensors), out=out, meta=meta,
                   tiling=list_tiling(n, use_desc))
    torch.testing.assert_close(out.double(), sum(t.reshape(-1).double() for t in tensors), rtol=1e-6, atol=1e-6)
    assert meta[0] == 3
    if use_desc:
        assert meta[1:13].tolist() == [2, 0, 2, n // 2, 2, 1, 4, n // 4, 2, 2, 8, n // 8]


def test_list_index_past_the_list_is_a_violation(headers):
    n = 64
    tensors = [torch.randn(n), torch.randn(n)]
    with pytest.raises(KernelRuleViolation, match=r"ListTensorDesc::GetDataPtr: broke the rule 'list indices are below "
                                                  r"the list's size': index 2 of a list of 2 tensors"):
        headers.launch("list_sum", 1, list=list_buffer(tensors), out=torch.zeros(n),
                       meta=torch.zeros(33, dtype=torch.int32), tiling=list_tiling(n, bad_index=2))


def test_list_with_a_wrong_pointer_offset_is_a_violation(headers):
    n = 64
    tensors = [torch.randn(n), torch.randn(n)]
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'a ListTensorDesc decodes the op framework's list "
                                                  r"layout': dim 1, 1 tensors and a data-pointer offset of 48 bytes"):
        headers.launch("list_sum", 1, list=list_buffer(tensors, [48]), out=torch.zeros(n),
                       meta=torch.zeros(33, dtype=torch.int32), tiling=list_tiling(n))


def list_run(headers, tensors, n, shapeless=False, **tiling):
    out, meta = torch.zeros(n), torch.full((33,), -1, dtype=torch.int32)
    headers.launch("list_sum", 1, list=list_buffer(tensors, shapeless=shapeless), out=out, meta=meta,
                   tiling=list_tiling(n, **tiling))
    torch.testing.assert_close(out.double(), sum(t.reshape(-1)[:n].double() for t in tensors), rtol=1e-6, atol=1e-6)
    return meta


def test_list_with_matching_length_and_shape_size_runs(headers):
    n = 64
    tensors = [torch.randn(4, n // 4), torch.randn(8, n // 8)]
    # 8 bytes of offset word, two descriptors of 3 words, then two pointers
    meta = list_run(headers, tensors, n, use_desc=1, length=8 * 7 + 8 * 2, shape_size=2, last_shape=1)
    assert meta[:9].tolist() == [2, 2, 0, 4, n // 4, 2, 1, 8, n // 8]


def test_list_with_a_wrong_shape_size_is_a_violation(headers):
    n = 64
    with pytest.raises(KernelRuleViolation, match=r"ListTensorDesc: broke the rule 'a ListTensorDesc's length and "
                                                  r"shapeSize match the list': length 72, shapeSize 3 for 2 tensors"):
        list_run(headers, [torch.randn(4, n // 4), torch.randn(8, n // 8)], n, length=72, shape_size=3)


def test_list_shape_offset_past_the_dim_is_a_violation(headers):
    n = 64
    with pytest.raises(KernelRuleViolation, match=r"TensorDesc::GetShape: broke the rule 'TensorDesc::GetShape's "
                                                  r"offset is below the tensor's dim': offset 2 of a 2-dimensional"):
        list_run(headers, [torch.randn(4, n // 4)], n, use_desc=1, last_shape=2)


def test_shapeless_list_runs_through_get_data_ptr(headers):
    n = 64
    assert list_run(headers, [torch.randn(n)], n, shapeless=True)[0] == 1


def test_shapeless_list_get_desc_is_a_violation(headers):
    n = 64
    with pytest.raises(KernelRuleViolation, match=r"ListTensorDesc::GetDesc: broke the rule 'GetDesc reads a list "
                                                  r"with shapes \(dim > 0\)': dim is 0"):
        list_run(headers, [torch.randn(n)], n, shapeless=True, use_desc=1)


def test_list_at_a_null_address_is_a_violation(headers):
    n = 64
    with pytest.raises(KernelRuleViolation, match=r"ListTensorDesc: broke the rule 'a ListTensorDesc decodes a list "
                                                  r"in GM': the address is null"):
        headers.launch("list_sum", 1, list=None, out=torch.zeros(n), meta=torch.zeros(33, dtype=torch.int32),
                       tiling=list_tiling(n))


@pytest.mark.parametrize("kernel,dst,src", [("mul_add_dst_ff", torch.float32, torch.float32),
                                            ("mul_add_dst_hh", torch.float16, torch.float16),
                                            ("mul_add_dst_fh", torch.float32, torch.float16)])
def test_mul_add_dst(headers, kernel, dst, src):
    n = 256
    a = (torch.rand(n, dtype=torch.float64) * 4 - 2).to(src)
    b = (torch.rand(n, dtype=torch.float64) * 4 - 2).to(src)
    acc = (torch.rand(n, dtype=torch.float64) * 4 - 2).to(dst)
    expect = a.double() * b.double() + acc.double()
    headers.launch(kernel, 1, a=a, b=b, acc=acc, n=n)
    tol = 4e-3 if dst == torch.float16 else 1e-6
    torch.testing.assert_close(acc.double(), expect, rtol=tol, atol=tol)

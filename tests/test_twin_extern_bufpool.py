"""A custom TBufPool (EXTERN_IMPL_BUFPOOL) on the twin: a pool class's own InitBuffer hands queues and a TBuf
their handles and UB addresses through InitStartBufHandle/InitBufHandle, two such pools take turns over one
range (TPipe::InitBufPool with shareBuf, Reset between them). Each rule of the set-up has a planted fault; the
passing counterpart is the same kernel with fault 0. References are computed in Python (float64)."""
import os
import struct

import pytest
import torch

import ascend_ext
from ascend_ext.twin import KernelRuleViolation

KERNEL = os.path.join(os.path.dirname(__file__), "kernels", "extern_bufpool.cpp")


@pytest.fixture(scope="module")
def lib():
    return ascend_ext.twin.compile_kernels([KERNEL])


def run(lib, fault=0, reset=1):
    a, b = torch.randn(512), torch.randn(512)
    out = torch.zeros(512)
    lib.launch("custom_pool_stages", 1, a=a, b=b, out=out, tiling=struct.pack("<2I", fault, reset))
    return a, b, out


def test_custom_pools_take_turns(lib):
    a, b, out = run(lib)
    ref = torch.cat([a[:256].double() + 2 * b[:256].double(), a[256:].double() - b[256:].double()])
    torch.testing.assert_close(out.double(), ref, rtol=1e-6, atol=1e-6)


def test_custom_pools_sharing_memory_without_reset_race(lib):
    # Without the first pool's Reset nothing orders its queues' last uses before the second pool's writes.
    with pytest.raises(KernelRuleViolation, match=r"broke the rule 'accesses of different pipes to the same UB bytes "
                                                  r"are ordered by synchronisation': WAR hazard"):
        run(lib, reset=0)


@pytest.mark.parametrize("fault,message", [
    (1, r"TQue::InitBufHandle: broke the rule 'InitBufHandle's bufhandle is one of the num handles from "
        r"InitStartBufHandle': the handle is 4 handles from the queue's start handle, the queue has 2 buffers"),
    (2, r"TQue::AllocTensor: broke the rule 'every buffer of a queue a custom TBufPool sets up is given its address "
        r"by InitBufHandle \(the handle InitStartBufHandle's start \+ i for buffer i\)': buffer 1 of the VECIN queue "
        r"\(2 buffers\) has none"),
    (3, r"TQue::InitBufHandle: broke the rule 'a custom TBufPool's buffers lie inside the pool's memory \(the twin is "
        r"stricter than A2, which does not check\)': a buffer of 1024 bytes at UB address 8192, the pool holds UB "
        r"\[0, 8192\)"),
    (4, r"TQue::InitBufHandle: broke the rule 'each handle of a custom TBufPool serves one queue or TBuf until the "
        r"pool's Reset': handle 0 already serves another queue or TBuf"),
    (5, r"TBuf::InitStartBufHandle: broke the rule 'InitStartBufHandle's num is 1 for a TBuf': num 2"),
    (6, r"TQue::InitBufHandle: broke the rule 'a custom TBufPool is set up by TPipe::InitBufPool \(or a TBufPool's "
        r"InitBufPool\) before it hands out buffers': this pool has no memory"),
    (7, r"TQue::InitBufHandle: broke the rule 'InitStartBufHandle names a queue's handles before its InitBufHandle'"),
    (8, r"TQue::InitBufHandle: broke the rule 'InitBufHandle's len is larger than 0': len 0"),
    (9, r"TQue::InitBufHandle: broke the rule 'InitBufHandle's bufhandle is one of the custom TBufPool's handles "
        r"\(GetBufHandle\(0\) to GetBufHandle\(BUFID_SIZE - 1\)\)': handle 4 of a pool of BUFID_SIZE 4"),
])
def test_custom_pool_faults_are_violations(lib, fault, message):
    with pytest.raises(KernelRuleViolation, match=message):
        run(lib, fault=fault)

"""Conversions vs torch 2.13: torch.tensor / as_tensor / from_numpy, to / type, copy_,
fill_, item / tolist and the Python number protocol, NumPy interop, *_like / new_*.

The differential cases use the harness of test_factories.py (they run where torch is
installed); the tests below them check memory sharing, atomicity of failing ops, the
meta device and default dtypes without torch.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from test_factories import _cases, assert_matches_torch

SETUP = """
x = torch.arange(6.).reshape(2, 3)
xt = x.t()
i = torch.tensor([1, 2])
b = torch.tensor(True)
cl = torch.empty(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
nd = torch.empty(4, 6)[:, ::2]
ex = torch.ones(3, 1).expand(3, 4)
m = torch.ones(2, 3, device='meta')
"""

TENSOR_DATA = r"""
torch.tensor(3)
torch.tensor(3.5)
torch.tensor(True)
torch.tensor(1+2j)
torch.tensor([])
torch.tensor([[]])
torch.tensor([[], []])
torch.tensor([[], [1]])
torch.tensor([[[]]])
torch.tensor(())
torch.tensor([1, 2.5])
torch.tensor([True, 1])
torch.tensor([True, 1.5])
torch.tensor([1, 1j])
torch.tensor(np.float16(1.5))
torch.tensor(np.bool_(True))
torch.tensor(np.int8(3))
torch.tensor(np.uint16(3))
torch.tensor(np.complex64(1j))
torch.tensor(np.float64(2.5), dtype=torch.float16)
torch.tensor([np.float16(1.5), 2])
torch.tensor([np.int8(1), np.int16(2)])
torch.tensor([np.float64(1.5), np.float32(2)])
torch.tensor([np.int8(1), 2.5])
torch.tensor([np.bool_(True), np.bool_(False)])
torch.tensor([np.bool_(True), 2])
torch.tensor([np.float16(2), True])
torch.tensor([np.complex64(1j), 2.])
torch.tensor([2, np.complex128(1j)])
torch.tensor([1.5, np.float32(2)])
torch.tensor([np.float32(1.5), np.float32(2)])
torch.tensor([np.int8(3), np.int8(-1)], dtype=torch.uint8)
torch.tensor([np.int64(300)], dtype=torch.uint8)
torch.tensor([np.uint8(200), np.uint8(3)])
torch.tensor([np.uint64(2**63)], dtype=torch.int64)
torch.tensor([np.bool_(True)], dtype=torch.float16)
torch.tensor([np.float16(1e4)], dtype=torch.bool)
torch.tensor([np.int16(5)], dtype=torch.bool)
torch.tensor([np.complex64(1j)], dtype=torch.float32)
torch.tensor([np.int32(2**31 - 1)], dtype=torch.float32)
torch.tensor(np.array([1, 2], dtype=np.int32))
torch.tensor(np.array(3.0))
torch.tensor(np.array([1, 2], dtype=np.uint16))
torch.tensor(np.array([1, 2], dtype=np.float16), dtype=torch.bfloat16)
torch.tensor(np.array([300, -1]), dtype=torch.uint8)
torch.tensor(np.array([1.5, float('nan')]), dtype=torch.int32)
torch.tensor(np.zeros((2, 3), order='F')).stride()
torch.tensor(np.zeros((2, 3))[::1, ::2]).stride()
torch.tensor(np.array([1, 2])[::-1])
torch.tensor(np.array([1, 2], dtype='>i4'))
torch.tensor(np.array(['a']))
torch.tensor(np.array([1, 2], dtype=object))
torch.tensor(np.array([1.5, 2], dtype=np.longdouble))
torch.tensor(np.datetime64('2020-01-01'))
torch.tensor([np.array([1, 2], dtype=np.int8), [3, 4]])
torch.tensor([[1, 2], np.array([3, 4], dtype=np.float16)])
torch.tensor([np.array(2, dtype=np.float16), 1])
torch.tensor([torch.tensor(1), torch.tensor(2)])
torch.tensor([torch.tensor(1, dtype=torch.int8), torch.tensor(2.5, dtype=torch.float16)])
torch.tensor([torch.tensor(1.5, dtype=torch.float64), 2])
torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])])
torch.tensor([torch.ones(2, 2), torch.ones(2)])
torch.tensor([[1, 2], torch.tensor([3, 4.5])])
torch.tensor([torch.tensor(1j)])
torch.tensor([torch.tensor(1j)], dtype=torch.float32)
torch.tensor([torch.tensor(300)], dtype=torch.uint8)
torch.tensor([torch.tensor(1.5)], dtype=torch.int32)
torch.tensor(torch.tensor([1, 2]))
torch.tensor(torch.tensor([1., 2.]), dtype=torch.int32)
torch.tensor(torch.tensor([1., 2.]), device='meta')
torch.tensor(torch.ones(2, 3).t()).stride()
torch.tensor(torch.tensor([1., 2.], requires_grad=True)).requires_grad
torch.tensor([[1, 2], [3]])
torch.tensor([[1, 2], 3])
torch.tensor([1, [2, 3]])
torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]])
torch.tensor([[1, 2], []])
torch.tensor([[1], 2])
torch.tensor([1, 'a'])
torch.tensor('abc')
torch.tensor(b'ab')
torch.tensor(['a'])
torch.tensor([[1, 2], 'ab'])
torch.tensor(None)
torch.tensor([None])
torch.tensor(object())
torch.tensor({1, 2})
torch.tensor([[1, 2], {3: 1, 4: 2}])
torch.tensor(range(3))
torch.tensor([range(2), range(2)])
torch.tensor((1, 2))
torch.tensor(bytearray(b'ab'))
torch.tensor(2**63)
torch.tensor(2**63 - 1)
torch.tensor(-2**63 - 1)
torch.tensor([1, 2**70])
torch.tensor([1.5, 2**70])
torch.tensor([1e400])
torch.tensor(300, dtype=torch.uint8)
torch.tensor(-1, dtype=torch.uint8)
torch.tensor([-255, 3], dtype=torch.uint8)
torch.tensor([-256], dtype=torch.uint8)
torch.tensor([1.5, 2.7, -1.9], dtype=torch.int32)
torch.tensor([127.9], dtype=torch.int8)
torch.tensor([-0.5], dtype=torch.uint8)
torch.tensor([float('nan')], dtype=torch.int32)
torch.tensor([float('inf')], dtype=torch.int64)
torch.tensor([2.0**63], dtype=torch.int64)
torch.tensor([2**40], dtype=torch.int32)
torch.tensor([2**64], dtype=torch.int32)
torch.tensor(2**63, dtype=torch.uint64)
torch.tensor([2**64], dtype=torch.uint64)
torch.tensor([-1], dtype=torch.uint64)
torch.tensor([-1.0], dtype=torch.uint64)
torch.tensor([-1], dtype=torch.uint32)
torch.tensor([2**32], dtype=torch.uint32)
torch.tensor(2**63, dtype=torch.float32)
torch.tensor([10**400], dtype=torch.float32)
torch.tensor([10**400], dtype=torch.bool)
torch.tensor(3.5, dtype=torch.bool)
torch.tensor([float('nan'), 0.0, -0.0], dtype=torch.bool)
torch.tensor([1j, 0j], dtype=torch.bool)
torch.tensor([np.int8(3)], dtype=torch.bool)
torch.tensor([np.float32(0.5)], dtype=torch.bool)
torch.tensor([np.float32(1.5)], dtype=torch.int32)
torch.tensor([np.float64(1.5)], dtype=torch.int32)
torch.tensor([np.bool_(True)], dtype=torch.int32)
torch.tensor([np.bool_(True)], dtype=torch.float32)
torch.tensor([1j], dtype=torch.float32)
torch.tensor(1j, dtype=torch.float32)
torch.tensor([1j], dtype=torch.int32)
torch.tensor([1.5], dtype=torch.complex64)
torch.tensor([2**63], dtype=torch.complex64)
torch.tensor(1e10, dtype=torch.float16)
torch.tensor(1 + 2**-11 + 2**-40, dtype=torch.float16)
torch.tensor(3.5, dtype=torch.bfloat16)
torch.tensor([1, 2], dtype=torch.float8_e4m3fn)
torch.tensor([1, 2], device='meta')
torch.tensor([1., 2], requires_grad=True).requires_grad
torch.tensor([1, 2], requires_grad=True)
torch.tensor([1], dtype='float32')
torch.tensor([1], device=0)
torch.tensor([1], device=1.5)
torch.tensor([1], requires_grad=1)
torch.tensor([1, 2], pin_memory=False)
torch.tensor(3, 4)
torch.tensor(data=[1])
torch.tensor()
torch.as_tensor([1, 2])
torch.as_tensor([1, 2], dtype=torch.float64)
torch.as_tensor(np.array([1, 2]), device='meta')
torch.as_tensor(3.5)
torch.as_tensor([1], torch.int8, 'cpu', 3)
torch.asarray([1, 2.5])
torch.asarray(3)
torch.asarray(3.5, dtype=torch.int32)
torch.asarray(np.float32(2))
torch.asarray([np.float32(2)])
torch.asarray(np.arange(3.))
torch.asarray(np.arange(3.), dtype=torch.float32, copy=False)
torch.asarray(np.arange(3.), dtype=torch.float32)
torch.asarray(np.arange(3.)[::-1])
torch.asarray([1, 2], copy=False)
torch.asarray(bytearray(8), dtype=torch.int64)
torch.asarray(bytearray(b'ab'))
torch.asarray(memoryview(b'abcd')).dtype
torch.asarray('ab')
torch.asarray([[1], [2, 3]])
torch.asarray(torch.ones(2), device='meta')
torch.asarray(torch.ones(2), dtype=torch.float64, copy=False)
torch.asarray(torch.ones(2), dtype=torch.float64)
torch.asarray(torch.ones(2, requires_grad=True)).requires_grad
torch.asarray(torch.ones(2, requires_grad=True), requires_grad=False).requires_grad
torch.asarray([1, 2], requires_grad=True)
torch.asarray([1., 2], requires_grad=True).requires_grad
torch.from_numpy(np.array([1., 2.]))
torch.from_numpy(np.zeros((2, 3), order='F')).stride()
torch.from_numpy(np.arange(12.)[1::3]).storage_offset()
torch.from_numpy(np.arange(12.).reshape(3, 4)[:, 1:3]).stride()
torch.from_numpy(np.zeros((2, 0))).stride()
torch.from_numpy(np.array(3.0)).shape
torch.from_numpy([1])
torch.from_numpy(np.float64(3.0))
torch.from_numpy(np.array([1], dtype=object))
torch.from_numpy(np.array(['a']))
torch.from_numpy(np.array([1, 2])[::-1])
torch.from_numpy(np.array([1, 2], dtype='>i4'))
torch.from_numpy(np.zeros(4, dtype=np.uint8).view('S2'))
torch.Tensor()
torch.Tensor(2, 3).shape
torch.Tensor(0).shape
torch.Tensor(-1)
torch.Tensor([1, 2])
torch.Tensor((2, 3))
torch.Tensor(torch.Size([2])).shape
torch.Tensor([[1, 2], [3, 4]])
torch.Tensor([True, 2.5])
torch.Tensor(range(3))
torch.Tensor(np.array([1, 2]))
torch.Tensor(torch.ones(2, dtype=torch.int64))
torch.Tensor(torch.tensor(3))
torch.Tensor(3.5)
torch.Tensor(True)
torch.Tensor(np.float64(2.5))
torch.Tensor('ab')
torch.Tensor(2, 'a')
torch.Tensor(2, 3.0)
torch.Tensor(2, 3, device='meta')
torch.FloatTensor(2, 3).shape
torch.FloatTensor([1, 2])
torch.LongTensor([1.5])
torch.BoolTensor([1, 0])
torch.DoubleTensor(np.array([1, 2], dtype=np.float32))
torch.FloatTensor(torch.ones(2))
torch.FloatTensor(torch.ones(2, dtype=torch.int64))
torch.HalfTensor()
isinstance(torch.ones(2), torch.FloatTensor)
isinstance(torch.ones(2, dtype=torch.int64), torch.FloatTensor)
isinstance(torch.ones(2, device='meta'), torch.FloatTensor)
issubclass(torch.FloatTensor, torch.Tensor)
repr(torch.LongTensor)
torch.ByteTensor.dtype
torch.ones(2).type(torch.LongTensor)
"""

TO_AND_CASTS = """
x.to('cpu') is x
x.to(torch.float64)
x.to(torch.float32) is x
x.to(torch.float32, copy=True) is x
x.to('meta', torch.float16)
x.to(i)
x.to(tensor=i)
x.to(other=i)
x.to(dtype=torch.int32)
x.to(device='meta')
x.to(device='meta', dtype=torch.int8)
x.to('cpu', torch.float64, True, True)
x.to(torch.float64, True, True)
x.to(torch.device('cpu'), non_blocking=True) is x
x.to() is x
x.to(None) is x
x.to(None, None) is x
x.to('cpu', None) is x
x.to('foo')
x.to(5)
x.to(torch.float32, torch.float64)
x.to('cpu', 'cpu')
x.to(torch.float64, memory_format=torch.channels_last)
x.to(memory_format=torch.contiguous_format) is x
xt.to(memory_format=torch.contiguous_format).stride()
xt.to(memory_format=torch.preserve_format) is xt
xt.to(torch.float64).stride()
cl.to(torch.float64).stride()
cl.to(memory_format=torch.channels_last) is cl
cl.to(memory_format=torch.contiguous_format).stride()
nd.to(torch.float64).stride()
ex.to(torch.float64).stride()
x.to(dtype=torch.float64, layout=torch.strided)
x.to(copy=True) is x
x.to(torch.float32, False, False, torch.preserve_format)
m.to('cpu')
m.to(torch.float64)
m.to(i)
x.type()
i.type()
b.type()
m.type()
torch.ones(2, dtype=torch.bfloat16).type()
torch.ones(2, dtype=torch.complex64).type()
torch.ones(2, dtype=torch.float16).type()
torch.ones(2, dtype=torch.uint16).type()
torch.ones(2, dtype=torch.float8_e4m3fn).type()
x.type(torch.float64)
x.type('torch.DoubleTensor')
x.type('torch.IntTensor')
x.type('torch.FooTensor')
x.type('float')
x.type(torch.float32) is x
x.type('torch.FloatTensor') is x
x.type(torch.float64, non_blocking=True)
x.type(dtype=torch.int8)
x.type(torch.int8, True, True)
x.type(5)
x.float() is x
x.double()
x.half()
x.bfloat16()
x.long()
x.int()
x.short()
x.char()
x.byte()
x.bool()
x.cfloat()
x.cdouble()
x.cpu() is x
m.cpu()
x.cpu(memory_format=torch.channels_last)
xt.float(memory_format=torch.contiguous_format).stride()
xt.double().stride()
x.double(torch.contiguous_format)
x.float(1)
"""

COPY_FILL = """
x.copy_(torch.tensor([1, 2, 3]))
x.copy_(torch.ones(3, 2))
x.copy_(torch.ones(6))
x.copy_(torch.tensor(5))
x.copy_(torch.ones(1, 2, 3))
x.copy_(torch.zeros(2, 3, dtype=torch.complex64))
x.copy_(m)
m.copy_(x)
m.copy_(torch.ones(3))
m.copy_(torch.ones(4))
x.copy_(x)
x[:, 1:].copy_(x[:, :1])
x[0].copy_(x[1])
ex.copy_(torch.ones(3, 4))
i.copy_(torch.ones(2, 3))
torch.ones(3).copy_(torch.ones(3).expand(2, 3))
torch.ones(2, dtype=torch.int32).copy_(torch.tensor([1.7, -1.7]))
torch.ones(4, dtype=torch.uint8).copy_(torch.tensor([-1., 256., 300.5, -0.5]))
torch.ones(4, dtype=torch.int8).copy_(torch.tensor([-129., 128., 1000, float('nan')]))
torch.ones(4, dtype=torch.int32).copy_(torch.tensor([float('inf'), float('-inf'), float('nan'), 3e9]))
torch.ones(4, dtype=torch.int64).copy_(torch.tensor([float('inf'), float('-inf'), float('nan'), 1e19]))
torch.ones(4, dtype=torch.int16).copy_(torch.tensor([float('inf'), 5e9, -70000., 1e9]))
torch.ones(4, dtype=torch.uint16).copy_(torch.tensor([-1., 70000., 5e9, float('nan')]))
torch.ones(4, dtype=torch.bool).copy_(torch.tensor([0.0, -0.0, float('nan'), 0.1]))
torch.ones(2, dtype=torch.bool).copy_(torch.tensor([2, 0]))
torch.ones(2, dtype=torch.uint8).copy_(torch.tensor([257, -1]))
torch.ones(2, dtype=torch.float16).copy_(torch.tensor([1e5, 1e-8], dtype=torch.float64))
torch.ones(1, dtype=torch.float16).copy_(torch.tensor([1 + 2**-11 + 2**-40], dtype=torch.float64))
torch.ones(1, dtype=torch.bfloat16).copy_(torch.tensor([1 + 2**-8 + 2**-40], dtype=torch.float64))
torch.ones(2, dtype=torch.float32).copy_(torch.tensor([1j, 2 + 3j]))
torch.ones(2, dtype=torch.int32).copy_(torch.tensor([1j, 2 + 3j]))
torch.ones(2, dtype=torch.bool).copy_(torch.tensor([1j, 0j]))
torch.ones(3, dtype=torch.uint64).copy_(torch.tensor([-1., 1e20, -1]))
torch.ones(2, dtype=torch.uint64).copy_(torch.tensor([-1, -2]))
torch.ones(2, dtype=torch.uint32).copy_(torch.tensor([-1., 5e9]))
torch.ones(2, dtype=torch.complex64).copy_(torch.tensor([1, 2]))
torch.ones(2, dtype=torch.bfloat16).copy_(torch.tensor([3, 300]))
torch.ones(2).copy_(torch.ones(2), True)
x.fill_(3)
x.fill_(torch.tensor(4))
x.fill_(torch.tensor([4]))
x.fill_(1j)
x.fill_(1 + 0j)
x.fill_(torch.tensor(1j))
x.fill_(np.float64(2))
x.fill_(np.bool_(True))
x.fill_(value=3)
m.fill_(5)
ex.fill_(2)
ex.zero_()
torch.ones(2, dtype=torch.uint8).fill_(300)
torch.ones(2, dtype=torch.uint8).fill_(-1)
torch.ones(2, dtype=torch.uint8).fill_(-256)
torch.ones(2, dtype=torch.uint8).fill_(-255)
torch.ones(2, dtype=torch.int8).fill_(128)
torch.ones(2, dtype=torch.int8).fill_(200.5)
torch.ones(2, dtype=torch.int8).fill_(-0.5)
torch.ones(2, dtype=torch.int8).fill_(float('nan'))
torch.ones(2, dtype=torch.int8).fill_(torch.tensor(300))
torch.ones(2, dtype=torch.int32).fill_(2**31)
torch.ones(2, dtype=torch.int64).fill_(2**63)
torch.ones(2, dtype=torch.uint64).fill_(2**63)
torch.ones(2, dtype=torch.uint64).fill_(2**64)
torch.ones(2, dtype=torch.uint64).fill_(-1)
torch.ones(2, dtype=torch.int64).fill_(-2**63)
torch.ones(2, dtype=torch.int64).fill_(float(2**63))
torch.ones(2, dtype=torch.uint16).fill_(-1.0)
torch.ones(2, dtype=torch.float16).fill_(1e6)
torch.ones(2, dtype=torch.float16).fill_(float('inf'))
torch.ones(2, dtype=torch.float32).fill_(1e300)
torch.ones(2, dtype=torch.float64).fill_(1e300)
torch.ones(2, dtype=torch.bfloat16).fill_(1e300)
torch.ones(2, dtype=torch.complex64).fill_(1e300)
torch.ones(2, dtype=torch.complex64).fill_(1j)
torch.ones(2, dtype=torch.bool).fill_(0.5)
torch.ones(2, dtype=torch.bool).fill_(2j)
torch.ones(2, dtype=torch.int32).fill_(True)
torch.ones(2, dtype=torch.float8_e4m3fn).fill_(1000)
torch.ones(2, dtype=torch.float8_e5m2).fill_(-1)
torch.fill(torch.ones(2), 3)
torch.fill_(torch.ones(2), 3)
torch.zero_(torch.ones(2))
torch.ones(2).zero_()
torch.clone(x)
xt.clone().stride()
xt.clone(memory_format=torch.contiguous_format).stride()
cl.clone().stride()
nd.clone().stride()
ex.clone().stride()
torch.ones(2).clone(memory_format=torch.channels_last)
torch.ones(1, 2, 3, 1).permute(0, 3, 1, 2).clone().stride()
torch.ones(2, 3, 4).permute(2, 0, 1)[:, ::2].clone().stride()
xt.contiguous().stride()
xt.contiguous() is xt
x.contiguous() is x
cl.contiguous().stride()
x.contiguous(memory_format=torch.channels_last)
xt.contiguous(torch.preserve_format)
x.contiguous(memory_format=torch.preserve_format) is x
xt.contiguous(memory_format=torch.preserve_format)
cl.contiguous(memory_format=torch.preserve_format)
torch.detach(x)
x.detach().requires_grad
"""

PYTHON_PROTOCOL = """
torch.tensor(2.5).item()
torch.tensor(2.5, dtype=torch.float16).item()
torch.tensor(2.5, dtype=torch.bfloat16).item()
torch.tensor(True).item()
torch.tensor(1+2j).item()
torch.tensor([3], dtype=torch.uint8).item()
torch.tensor(2**63, dtype=torch.uint64).item()
torch.tensor([[3]]).item()
torch.tensor(0.1).item()
torch.tensor(1., dtype=torch.float8_e4m3fn).item()
torch.tensor([1, 2]).item()
torch.tensor([]).item()
torch.ones(1, device='meta').item()
torch.tensor([[1, 2]], dtype=torch.bfloat16).tolist()
torch.tensor([[1, 2]], dtype=torch.float8_e5m2).tolist()
torch.tensor(3).tolist()
torch.tensor([1+2j]).tolist()
torch.ones(0, 2).tolist()
m.tolist()
len(x)
len(torch.tensor(3))
len(torch.ones(0, 3))
list(torch.tensor(3))
list(torch.ones(0, 3))
[t.tolist() for t in x]
[t._base is x for t in x]
bool(torch.tensor([1, 2]))
bool(torch.tensor([]))
bool(torch.tensor([0.]))
bool(torch.tensor(1j))
bool(torch.tensor(float('nan')))
bool(torch.ones(1, device='meta'))
bool(torch.ones(2, device='meta'))
float(torch.tensor([1, 2]))
float(torch.tensor([]))
float(torch.tensor([[2]]))
float(torch.tensor(1+2j))
float(torch.tensor(1+0j))
float(torch.tensor(True))
float(torch.ones(1, device='meta'))
int(torch.tensor(2.7))
int(torch.tensor(-2.7))
int(torch.tensor(float('nan')))
int(torch.tensor(float('inf')))
int(torch.tensor([1, 2]))
int(torch.tensor(1+2j))
complex(torch.tensor(2))
complex(torch.tensor([1, 2]))
torch.tensor(2).__index__()
torch.tensor([2]).__index__()
torch.tensor(2.).__index__()
torch.tensor(True).__index__()
torch.tensor([1, 2]).__index__()
torch.tensor(2, dtype=torch.uint8).__index__()
[10, 20, 30][torch.tensor(1)]
hash(x) == id(x)
x.t().numpy().strides
torch.ones(2, requires_grad=True).numpy()
torch.ones(2, requires_grad=True).numpy(force=True)
m.numpy()
m.numpy(force=True)
torch.ones(2, dtype=torch.bfloat16).numpy()
torch.ones(2, dtype=torch.float8_e4m3fn).numpy()
torch.ones(2).numpy(True)
np.asarray(x).dtype
np.asarray(x, dtype=np.float64).dtype
np.asarray(torch.ones(2, requires_grad=True))
np.asarray(m)
np.array(torch.ones(2, dtype=torch.bfloat16))
x.__array__(np.int32)
x.data is x
x.data.requires_grad
"""

LIKE_AND_NEW = """
torch.zeros_like(x)
torch.zeros_like(xt)
torch.zeros_like(cl).stride()
torch.zeros_like(nd)
torch.zeros_like(ex)
torch.zeros_like(xt, memory_format=torch.contiguous_format)
torch.zeros_like(x, memory_format=torch.channels_last)
torch.zeros_like(x, dtype=torch.int32)
torch.zeros_like(x, device='meta')
torch.zeros_like(m)
torch.zeros_like(m, device='cpu')
torch.zeros_like([1, 2])
torch.zeros_like(x, layout=torch.strided)
torch.zeros_like(input=x)
torch.zeros_like(x, requires_grad=True).requires_grad
torch.zeros_like(i, requires_grad=True)
torch.ones_like(i, dtype=torch.float16)
torch.empty_like(xt).stride()
torch.empty_like(xt, memory_format=torch.preserve_format).stride()
torch.empty_like(torch.ones(1, 2, 3, 1).permute(0, 3, 1, 2)).stride()
torch.empty_like(torch.ones(2, 1, 3)[:, :, ::2]).stride()
torch.empty_like(torch.ones(2, 3, 4).permute(2, 0, 1)[:, ::2]).stride()
torch.empty_like(torch.ones(2, 3, 4).permute(2, 0, 1)).stride()
torch.empty_like(torch.ones(2, 0, 3).permute(2, 1, 0)).stride()
torch.full_like(x, 7)
torch.full_like(i, 7.5)
torch.full_like(i, 1j)
torch.full_like(i, 300, dtype=torch.uint8)
torch.full_like(x, True)
x.new_zeros(2)
x.new_zeros((2, 3))
x.new_zeros(2, 3, dtype=torch.int8)
i.new_ones(2)
i.new_empty(2).dtype
i.new_empty((2,), device='meta')
i.new_empty(-1)
i.new_empty_strided((2, 3), (1, 2)).stride()
i.new_full((2,), 3.5)
x.new_full((2,), 3)
i.new_full(2, 3)
x.new_zeros(2, requires_grad=True).requires_grad
m.new_zeros(3)
x.new_tensor([1, 2])
i.new_tensor([1.5, 2])
x.new_tensor(3)
x.new_tensor([1, 2], dtype=torch.int8)
x.new_tensor(i)
x.new_tensor(np.array([1, 2]))
x.new_tensor([1., 2], requires_grad=True).requires_grad
x.new_tensor([1], torch.int8)
m.new_tensor([1, 2])
x.new()
x.new(2, 3).shape
x.new([1, 2])
i.new([1, 2])
i.new(2).dtype
x.new(i)
x.new(torch.ones(3)).shape
x.new(device='meta')
"""


@pytest.mark.parametrize("source", _cases(TENSOR_DATA))
def test_tensor_from_data_matches_torch(source):
    assert_matches_torch(source)


@pytest.mark.parametrize("source", _cases(TO_AND_CASTS))
def test_to_and_type_match_torch(source):
    assert_matches_torch(source, SETUP)


@pytest.mark.parametrize("source", _cases(COPY_FILL))
def test_copy_fill_clone_match_torch(source):
    assert_matches_torch(source, SETUP)


# copy_'s Meta registration: torch returns on meta before its kernel's complex warning
META_COPIES = """
m.copy_(torch.zeros(2, 3, dtype=torch.complex64))
m.copy_(torch.zeros(2, 3, dtype=torch.complex64, device='meta'))
torch.zeros(2, 3, dtype=torch.complex64).to('meta', torch.float32)
"""


@pytest.mark.parametrize("source", _cases(META_COPIES))
def test_copies_warn_as_torch_on_meta(source):
    assert_matches_torch(source, SETUP, check_warnings=True)


@pytest.mark.parametrize("source", _cases(PYTHON_PROTOCOL))
def test_python_protocol_matches_torch(source):
    assert_matches_torch(source, SETUP)


@pytest.mark.parametrize("source", _cases(LIKE_AND_NEW))
def test_like_and_new_match_torch(source):
    assert_matches_torch(source, SETUP)


# ----------------------------------------------------------------------------------
# Memory sharing (no torch needed)
# ----------------------------------------------------------------------------------
def test_from_numpy_shares_memory_both_ways():
    array = np.arange(6.0).reshape(2, 3)
    t = gt.from_numpy(array)
    t[0, 1] = 10
    array[1, 2] = 20
    assert array[0, 1] == 10 and t[1, 2].item() == 20


def test_from_numpy_keeps_a_view_geometry():
    base = np.arange(24.0).reshape(4, 6)
    view = base[1:, ::2].T
    t = gt.from_numpy(view)
    assert t.stride() == tuple(s // 8 for s in view.strides)
    np.testing.assert_array_equal(t.numpy(), view)
    t.fill_(-1)
    assert (base[1:, ::2] == -1).all() and base[0].tolist() == list(range(6))


def test_from_numpy_shares_a_permuted_array_that_owns_its_memory():
    """A copy of a permuted view keeps the permuted layout (neither C nor F order)."""
    array = np.array(np.arange(24.0).reshape(2, 3, 4).transpose(1, 0, 2), copy=True)
    assert not (array.flags.c_contiguous or array.flags.f_contiguous)
    t = gt.from_numpy(array)
    assert t.stride() == tuple(s // 8 for s in array.strides)
    t[2, 1, 3] = -1
    assert array[2, 1, 3] == -1 and t.tolist() == array.tolist()


def test_as_tensor_shares_only_without_conversion():
    array = np.ones(3, dtype=np.float32)
    shared = gt.as_tensor(array)
    copied = gt.as_tensor(array, dtype=gt.float64)
    array[0] = 5
    assert shared[0].item() == 5 and copied[0].item() == 1
    t = gt.ones(2)
    assert gt.as_tensor(t) is t and gt.as_tensor(t, dtype=gt.float32) is t


def test_asarray_shares_whatever_it_can():
    t = gt.ones(2)
    assert gt.asarray(t) is t and gt.asarray(t, copy=True) is not t
    array = np.zeros(3)
    gt.asarray(array)[0] = 1
    gt.asarray(array, copy=True)[1] = 1
    buffer = bytearray(8)
    gt.asarray(buffer, dtype=gt.int32)[1] = 7
    assert array.tolist() == [1.0, 0.0, 0.0] and buffer[4] == 7


def test_tensor_and_new_tensor_always_copy():
    array = np.ones(3)
    t = gt.tensor(array)
    array[0] = 5
    assert t[0].item() == 1
    source = gt.ones(2)
    with pytest.warns(UserWarning, match="rather than torch.tensor"):
        copy = gt.tensor(source)
    with pytest.warns(UserWarning, match=r"rather than tensor.new_tensor"):
        other = source.new_tensor(source)
    assert copy.data_ptr() != source.data_ptr() and other.data_ptr() != source.data_ptr()


def test_numpy_and_array_share_memory():
    t = gt.zeros(2, 3)
    array = t.numpy()
    array[0, 0] = 7
    assert t[0, 0].item() == 7
    np.asarray(t)[1, 2] = 9
    assert t[1, 2].item() == 9
    assert np.shares_memory(np.asarray(t.t()), array)


def test_legacy_constructor_shares_a_float32_array():
    array = np.zeros(2, dtype=np.float32)
    gt.Tensor(array)[0] = 3
    assert array[0] == 3


def test_iteration_yields_views_along_dim_0():
    x = gt.zeros(2, 3)
    x.copy_(gt.arange(6.0).reshape(2, 3))
    rows = list(x)
    assert [r.tolist() for r in rows] == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    rows[1][0] = 30
    assert x[1, 0].item() == 30 and all(r._base is x for r in rows)


def test_hash_is_identity():
    x, y = gt.zeros(2), gt.zeros(2)
    assert hash(x) == id(x) and len({x, y, x}) == 2


def test_non_writable_array_warns_once_per_call():
    array = np.ones(2)
    array.flags.writeable = False
    with pytest.warns(UserWarning, match="The given NumPy array is not writable"):
        gt.from_numpy(array)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gt.tensor(array)                    # a copy: nothing to warn about


# ----------------------------------------------------------------------------------
# A failing operator changes nothing
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda x: x.copy_(gt.ones(3, 2)),
    lambda x: x.copy_(gt.ones(2, 3, device="meta")),
    lambda x: x.fill_(1j),
    lambda x: x.to(gt.int8).fill_(300),
    lambda x: x.fill_(gt.ones(2)),
    lambda x: gt.zeros(2, dtype=gt.int64, out=x),
])
def test_failing_writes_leave_the_tensor_unchanged(call):
    x = gt.arange(6.0).reshape(2, 3)
    version = x._version
    with pytest.raises((RuntimeError, NotImplementedError)):
        call(x)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert x._version == version and x.shape == (2, 3) and x.dtype is gt.float32


def test_successful_writes_bump_the_version_once():
    x = gt.zeros(3)
    for write in (lambda: x.fill_(2), lambda: x.copy_(gt.ones(3)), lambda: x.zero_()):
        version = x._version
        write()
        assert x._version == version + 1


# ----------------------------------------------------------------------------------
# The meta device, the default dtype, requires_grad
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda: gt.zeros(2, 3), lambda: gt.ones(2), lambda: gt.empty(4), lambda: gt.full((2,), 7),
    lambda: gt.arange(5), lambda: gt.linspace(0, 1, 4), lambda: gt.logspace(0, 1, 3),
    lambda: gt.eye(3), lambda: gt.scalar_tensor(1), lambda: gt.tensor([1, 2]),
    lambda: gt.as_tensor([1.5]), lambda: gt.empty_strided((2, 3), (1, 2)),
    lambda: gt.Tensor(2, 3),
])
def test_factories_follow_the_default_device(make):
    with gt.device("meta"):
        result = make()
    assert result.device.type == "meta"
    assert make().device.type == "cpu"


def test_like_factories_follow_their_input_device():
    meta = gt.ones(2, 3, device="meta")
    assert gt.zeros_like(meta).device.type == "meta"
    assert gt.zeros_like(meta, device="cpu").tolist() == [[0.0] * 3] * 2
    assert meta.new_full((2,), 3).device.type == "meta"


def test_default_dtype_drives_float_factories():
    previous = gt.get_default_dtype()
    gt.set_default_dtype(gt.float64)
    try:
        assert gt.tensor([1.5]).dtype is gt.float64
        assert gt.tensor([1j]).dtype is gt.complex128
        assert gt.arange(0.0, 1.0).dtype is gt.float64
        assert gt.arange(3).dtype is gt.int64
        assert gt.zeros(2).dtype is gt.float64
        assert gt.linspace(0, 1, 3).dtype is gt.float64
        assert gt.full((2,), 1.5).dtype is gt.float64
        assert gt.Tensor([1, 2]).dtype is gt.float64
    finally:
        gt.set_default_dtype(previous)


@pytest.mark.parametrize("make", [
    lambda: gt.zeros(2, requires_grad=True), lambda: gt.ones_like(gt.ones(2), requires_grad=True),
    lambda: gt.arange(3.0, requires_grad=True), lambda: gt.tensor([1.0], requires_grad=True),
    lambda: gt.ones(1).new_zeros(2, requires_grad=True),
    lambda: gt.ones(1).new_tensor([1.0], requires_grad=True),
])
def test_factories_take_requires_grad(make):
    result = make()
    assert result.requires_grad and result.is_leaf


def test_to_and_shorthands_return_self_when_nothing_changes():
    x = gt.ones(2, 3)
    assert x.to(gt.float32) is x and x.to("cpu") is x and x.float() is x and x.cpu() is x
    assert x.type(gt.float32) is x and x.to(x) is x
    assert x.to(gt.float32, copy=True) is not x
    assert x.type() == "torch.FloatTensor" and gt.ones(1, device="meta").type() == \
        "torch.meta.FloatTensor"


def test_item_types():
    assert type(gt.tensor(2.5, dtype=gt.bfloat16).item()) is float
    assert type(gt.tensor(2.5, dtype=gt.float16).item()) is float
    assert gt.tensor(True).item() is True
    assert type(gt.tensor(3, dtype=gt.uint8).item()) is int
    assert gt.tensor(1 + 2j).item() == 1 + 2j


# ----------------------------------------------------------------------------------
# Every cast between dtypes, on values in and out of range (torch's CPU results)
# ----------------------------------------------------------------------------------
CAST_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32",
               "uint64", "float16", "bfloat16", "float32", "float64", "complex64",
               "complex128", "float8_e4m3fn", "float8_e5m2")
CAST_VALUES = """
values = torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, 127.5, 128.0, -129.0, 255.0,
                       256.0, 300.7, -300.7, 65504.0, 65520.0, 70000.0, 1e9, -1e9, 3e9, 5e9,
                       1e19, -1e19, 1e30, 1e39, float('inf'), float('-inf'), float('nan'),
                       3.3e38, 1e-8, 1e-40, 448.0, 464.0, 57344.0], dtype=torch.float64)
"""


@pytest.mark.parametrize("source", CAST_DTYPES[:-2])
@pytest.mark.parametrize("target", CAST_DTYPES)
def test_casts_match_torch(source, target):
    assert_matches_torch(f"values.to(torch.{source}).to(torch.{target})", CAST_VALUES)

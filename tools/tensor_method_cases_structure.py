"""The Tensor method calls of tools/tensor_method_cases.py that change a tensor's structure:
shapes, splitting, selection, sorting, scatters, in-place methods and random fills."""

STRUCTURE_CASES = {
    # ------------------------------------------------------------ shape
    'transpose': [
        "x.transpose()", "x.transpose(0, 1)", "x.transpose(1, 0)", "x.transpose(-2, -1)",
        "x.transpose(-1, 0)", "x.transpose((1, 0))", "x.transpose([1, 0])",
        "x.transpose(dim0=0, dim1=1)", "c.transpose()", "c.transpose(0, 2)", "c.transpose(2, 0)",
        "c.transpose(1, 2)", "c.transpose(-1, -2)", "c.transpose(1, 0, 2)", "c.transpose(2, 0, 1)",
        "c.transpose((1, 0, 2))", "c.transpose([2, 0, 1])", "c.transpose((-1, 0, 1))",
        "c.transpose(axes=(1, 0, 2))", "c.transpose(None)", "v.transpose()", "v.transpose(0, 0)",
        "x.transpose(0, 0)", "c.transpose(0, 1, -1)", "s.transpose()", "x.transpose(axes=None)",
        "x.transpose(np.int64(1), 0)", "v.transpose(0)", "c.transpose(-3, 1)"],
    'permute': [
        "c.permute(1, 0, 2)", "c.permute((2, 0, 1))", "c.permute([2, 0, 1])", "c.permute(-1, 0, 1)",
        "x.permute(1, 0)", "c.permute(dims=(1, 0, 2))", "c.permute(axis=(1, 0, 2))"],
    'swapaxes': ["x.swapaxes(0, 1)", "c.swapaxes(0, 2)", "c.swapaxes(-1, 1)"],
    'swapdims': ["x.swapdims(0, 1)", "c.swapdims(0, 2)", "c.swapdims(-1, 1)"],
    'moveaxis': ["c.moveaxis(0, 2)", "c.moveaxis((0, 1), (2, 0))", "c.moveaxis(-1, 0)"],
    'movedim': ["c.movedim(0, 2)", "c.movedim((0, 1), (2, 0))", "c.movedim(-1, 0)"],
    'squeeze': [
        "c[:1].squeeze()", "c[:1].squeeze(0)", "c[:1, :, :1].squeeze((0, 2))", "c[:1].squeeze(1)",
        "c[:1, :, :1].squeeze(axis=2)", "c[:1, :, :1].squeeze([0, 2])", "s.squeeze()",
        "c[:1, :, :1].squeeze(-1)", "c[:1, :, :1].squeeze((1, 2))", "x.squeeze(0)"],
    'unsqueeze': [
        "x.unsqueeze(0)", "x.unsqueeze(-1)", "x.unsqueeze(dim=1)", "x.unsqueeze(axis=1)",
        "s.unsqueeze(0)"],
    'expand_dims': ["x.expand_dims(0)", "x.expand_dims(-1)", "x.expand_dims(axis=1)"],
    'flatten': [
        "c.flatten()", "c.flatten(1)", "c.flatten(0, 1)", "c.flatten(start_dim=1)",
        "c.flatten(end_dim=1)", "c.flatten('C')", "c.flatten('F')", "c.flatten('C', 1)",
        "c.flatten(order='C', start_dim=1)", "c.flatten(-2)", "s.flatten()", "x.flatten(1, 1)"],
    'broadcast_to': [
        "v3.broadcast_to((2, 3))", "v3.broadcast_to((2, -1))", "x.broadcast_to((2, 2, 3))",
        "v3.broadcast_to([2, 3])"],
    'expand': [
        "v3.expand(2, 3)", "v3.expand((2, 3))", "v3.expand(2, -1)", "x[:1].expand(3, 2, -1)"],
    'expand_as': ["v3.expand_as(x)", "v3.expand_as(other=x)"],
    'tile': [
        "x.tile((2, 1))", "x.tile((2,))", "x.tile((2, 1, 2))", "x.tile([1, 2])",
        "x.tile(dims=(2, 1))", "x.tile(reps=(2, 1))", "x.tile((1, 2, 1))", "v3.tile((2,))",
        "x.tile((2, 2))"],
    'repeat': [
        "x.repeat(2, 1)", "x.repeat((2, 1))", "x.repeat(1, 2, 1)", "v3.repeat(2)",
        "x.repeat([2, 2])"],
    'repeat_interleave': [
        "x.repeat_interleave(2)", "x.repeat_interleave(2, 0)", "x.repeat_interleave(2, dim=1)",
        "x.repeat_interleave((1, 2), 0)", "x.repeat_interleave(ms.Tensor([1, 0, 2]), 1)",
        "x.repeat_interleave([1, 2, 1], 1)", "v3.repeat_interleave(2, output_size=6)"],
    'flip': ["x.flip(0)", "x.flip((0, 1))", "x.flip([1])", "x.flip(-1)", "x.flip(dims=(1,))"],
    'fliplr': ["x.fliplr()"],
    'flipud': ["x.flipud()"],
    'reverse': ["x.reverse([0])", "x.reverse((0, 1))", "x.reverse(axis=[1])"],
    'roll': [
        "x.roll(1)", "x.roll(1, 1)", "x.roll((1, 2), (0, 1))", "x.roll(-1, 0)",
        "x.roll(shifts=2, dims=1)", "v.roll(1)"],
    'rot90': [
        "x.rot90(1, (0, 1))", "x.rot90(2, [0, 1])", "x.rot90(-1, (0, 1))", "c.rot90(1, (1, 2))",
        "x.rot90(3, (1, 0))"],
    'sum_to_size': [
        "x.sum_to_size(1, 3)", "x.sum_to_size((2, 1))", "x.sum_to_size(3)", "c.sum_to_size(3, 1)"],
    # ------------------------------------------------------------ splitting
    'split': [
        "x.split(1)", "x.split(2, 1)", "x.split([1, 2], 1)", "x.split((2, 1), dim=1)",
        "x.split(1, axis=0)", "x.split(split_size=2, dim=1)", "c.split(2, -1)",
        "x.split(split_size_or_sections=2, axis=1)"],
    'chunk': [
        "x.chunk(2)", "x.chunk(2, 1)", "x.chunk(3, dim=1)", "x.chunk(2, axis=1)", "c.chunk(3, -1)"],
    'tensor_split': [
        "x.tensor_split(2, 1)", "x.tensor_split(3, 1)", "x.tensor_split((1, 2), 1)",
        "x.tensor_split([1], 0)", "c.tensor_split(3, -1)", "x.tensor_split(2, axis=1)"],
    'hsplit': ["x.hsplit(3)", "x.hsplit((1, 2))", "v.hsplit(2)"],
    'vsplit': ["x.vsplit(2)", "c.vsplit([1])"],
    'dsplit': ["c.dsplit(2)", "c.dsplit((1, 3))"],
    'unbind': ["x.unbind()", "x.unbind(1)", "x.unbind(dim=-1)"],
    'narrow': [
        "x.narrow(1, 1, 2)", "x.narrow(0, 1, 1)", "x.narrow(-1, 0, 2)",
        "x.narrow(1, ms.Tensor(1), 2)"],
    # ------------------------------------------------------------ selection
    'gather': [
        "x.gather(ix, 1)", "x.gather(ms.Tensor([1, 0, 1]), 0)", "x.gather(ix64, axis=1)",
        "x.gather(input_indices=ix, axis=1)", "x.gather(1, g)", "x.gather(0, g3.clip(0, 1)[:, :2])",
        "x.gather(dim=1, index=g)", "x.gather(ms.Tensor([[1], [0]]), 1, 1)", "x.gather(g, 1)"],
    'gather_elements': [
        "x.gather_elements(1, g)", "x.gather_elements(0, g3.clip(0, 1))",
        "x.gather_elements(dim=1, index=g)", "x.gather_elements(0, g3.clip(0, 1)[:, :2])"],
    'gather_nd': ["x.gather_nd(nd)", "x.gather_nd(ms.Tensor([[1], [0]]))"],
    'index_select': [
        "x.index_select(1, ix)", "x.index_select(0, ms.Tensor([1]))",
        "x.index_select(dim=1, index=ix64)", "x.index_select(axis=1, index=ix)",
        "x.index_select(-1, ix)"],
    'take': [
        "x.take(ix)", "x.take(ms.Tensor([[0, 5], [3, 1]]))", "x.take(ix, 1)",
        "x.take(ms.Tensor([7, -1]))", "x.take(ms.Tensor([7, -1]), mode='wrap')",
        "x.take(ms.Tensor([4, 1]), axis=None, mode='raise')", "x.take(index=ix)",
        "x.take(indices=ix, axis=0)", "x.take(ms.Tensor([-7, 9, -6]))",
        "x.take(ms.Tensor([-1, 3]), 1)", "x.take(ms.Tensor([-4, 5]), 1, 'wrap')"],
    'select': [
        "x.select(0, 1)", "x.select(1, -1)", "c.select(2, 0)", "x.select(b, y)", "x.select(b, 0.0)",
        "x.select(dim=1, index=0)", "x.select(condition=b, y=y)"],
    'where': [
        "x.where(b, y)", "x.where(b, 0.0)", "x.where(condition=b, y=y)", "x.where(b, other=y)",
        "i.where(b, j)", "x.where(row, 9)"],
    'masked_fill': [
        "x.masked_fill(b, 0.0)", "x.masked_fill(b, 2)", "x.masked_fill(row, ms.Tensor(7.0))",
        "i.masked_fill(b, 9)", "i.masked_fill(b, 1.5)", "x.masked_fill(mask=b, value=1.0)"],
    'masked_select': ["x.masked_select(b)", "x.masked_select(row)", "i.masked_select(b)"],
    'masked_scatter': ["x.masked_scatter(b, y)", "x.masked_scatter(row, y)"],
    'nonzero': [
        "i.nonzero()", "b.nonzero()", "i.nonzero(as_tuple=True)", "v.nonzero()", "s.nonzero()"],
    'argwhere': ["i.argwhere()", "b.argwhere()", "v.argwhere()"],
    'clamp': [
        "x.clamp(0.0, 1.0)", "x.clamp(0.0)", "x.clamp(max=1.0)", "x.clamp(min=-0.5, max=0.5)",
        "x.clamp(y, p)", "x.clamp(min=y)", "x.clamp(max=0.5)", "i.clamp(0, 4)", "i.clamp(0.5, 3.5)",
        "x.clamp(0, 1)"],
    'clip': [
        "x.clip(0.0, 1.0)", "x.clip(0.0)", "x.clip(max=1.0)", "x.clip(min=-0.5, max=0.5)",
        "x.clip(y, p)", "i.clip(0, 4)", "i.clip(0.5, 3.5)"],
    'searchsorted': [
        "srt.searchsorted(ms.Tensor([0.5, 2.5, 11.0]))",
        "srt.searchsorted(ms.Tensor([0.5, 2.5, 11.0]), side='right')",
        "srt.searchsorted(ms.Tensor([[1.0, 3.0], [4.0, -1.0]]))", "srt.searchsorted(2.5)",
        "srt.searchsorted(ms.Tensor([1.0, 4.0]), 'right')",
        "k.sort()[0].searchsorted(ms.Tensor([1, 2]))",
        "srt.searchsorted(ms.Tensor([2.5]), sorter=ms.Tensor([0, 1, 2, 3, 4]))"],
    # ------------------------------------------------------------ sorting
    'sort': [
        "x.sort()", "x.sort(0)", "x.sort(1, True)", "x.sort(descending=True)", "x.sort(dim=0)",
        "x.sort(axis=0)", "x.sort(axis=0, descending=True)",
        "x.sort(dim=1, descending=True, stable=True)", "i.sort()", "dup.sort()",
        "dup.sort(stable=True)"],
    'argsort': [
        "x.argsort()", "x.argsort(0)", "x.argsort(1, True)", "x.argsort(descending=True)",
        "x.argsort(dim=0)", "x.argsort(axis=0)", "x.argsort(dim=1, descending=True, stable=True)",
        "i.argsort()", "dup.argsort(stable=True)"],
    'topk': [
        "x.topk(2)", "x.topk(1, 0)", "x.topk(2, 1, False)", "x.topk(2, dim=0)",
        "x.topk(2, largest=False)", "x.topk(2, 1, True, True)", "i.topk(2)", "v.topk(3)"],
    'top_k': ["x.top_k(2)", "v.top_k(3)", "x.top_k(2, False)"],
    'unique': [
        "dup.unique()", "dup.unique(return_inverse=True)", "dup.unique(return_counts=True)",
        "dup.unique(True, True, True)", "k.unique()", "x.unique()", "dup.unique(sorted=False)"],
    'unique_consecutive': [
        "dup.unique_consecutive()", "ms.Tensor([1, 1, 2, 2, 3, 1, 1]).unique_consecutive()",
        "ms.Tensor([1, 1, 2, 2, 3, 1, 1]).unique_consecutive(True, True)",
        "ms.Tensor([1, 1, 2, 2, 3, 1, 1]).unique_consecutive(return_counts=True)",
        "ms.Tensor([[1, 1], [1, 1], [2, 3]]).unique_consecutive(dim=0)"],
    # ------------------------------------------------------------ scatters
    'scatter': [
        "x.scatter(1, g, y[:, :2])", "x.scatter(0, g3.clip(0, 1)[:, :2], y[:, :2])",
        "x.scatter(dim=1, index=g, src=y[:, :2])", "x.scatter(axis=1, index=g, src=y[:, :2])",
        "x.scatter(1, g, 5.0)", "x.scatter(1, g, y[:, :2], reduce='add')",
        "x.scatter(1, g, 2.0, reduce='multiply')", "x.scatter(1, g, value=5.0)"],
    'scatter_': [
        "(x.scatter_(1, g, y[:, :2]), x)", "(x.scatter_(1, g, 5.0), x)",
        "(x.scatter_(1, g, y[:, :2], reduce='add'), x)",
        "(x.scatter_(dim=1, index=g, src=y[:, :2]), x)", "(x.scatter_(1, g, value=5.0), x)"],
    'scatter_add': [
        "x.scatter_add(1, g, y[:, :2])", "x.scatter_add(dim=1, index=g, src=y[:, :2])",
        "x.scatter_add(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([1.0, 2.0]))",
        "x.scatter_add(ms.Tensor([[1], [1]]), y)",
        "x.scatter_add(indices=ms.Tensor([[1], [1]]), updates=y)"],
    'scatter_add_': ["(x.scatter_add_(1, g, y[:, :2]), x)"],
    'scatter_sub': [
        "x.scatter_sub(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([1.0, 2.0]))",
        "x.scatter_sub(ms.Tensor([[1], [1]]), y)"],
    'scatter_mul': [
        "x.scatter_mul(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([3.0, 2.0]))",
        "x.scatter_mul(ms.Tensor([[1], [1]]), y)"],
    'scatter_div': [
        "x.scatter_div(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([2.0, 4.0]))",
        "x.scatter_div(ms.Tensor([[1], [1]]), p)"],
    'scatter_max': [
        "x.scatter_max(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([3.0, -2.0]))",
        "x.scatter_max(ms.Tensor([[1], [1]]), y)"],
    'scatter_min': [
        "x.scatter_min(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([3.0, -2.0]))",
        "x.scatter_min(ms.Tensor([[1], [1]]), y)"],
    'index_add': [
        "x.index_add(1, ix, y[:, :2])", "x.index_add(0, ms.Tensor([1, 1]), y)",
        "x.index_add(1, ix, y[:, :2], alpha=2)", "x.index_add(dim=1, index=ix, source=y[:, :2])",
        "x.index_add(ix, y[:, :2], 1)", "x.index_add(indices=ix, y=y[:, :2], axis=1)"],
    'index_add_': [
        "(x.index_add_(1, ix, y[:, :2]), x)", "(x.index_add_(1, ix, y[:, :2], alpha=2), x)"],
    'index_fill': [
        "x.index_fill(1, ix, 9.0)", "x.index_fill(0, ms.Tensor([1]), -1.0)",
        "x.index_fill(1, ix, ms.Tensor(9.0))", "i.index_fill(1, ix, 9)"],
    'index_fill_': ["(x.index_fill_(1, ix, 9.0), x)", "(x.index_fill_(1, ix, ms.Tensor(9.0)), x)"],
    'index_copy_': [
        "(x.index_copy_(1, ix, y[:, :2]), x)", "(x.index_copy_(0, ms.Tensor([1]), y[:1]), x)"],
    'index_put': [
        "x.index_put((ms.Tensor([0, 1]), ms.Tensor([2, 0])), ms.Tensor([9.0, 8.0]))",
        "x.index_put((ms.Tensor([0, 0]), ms.Tensor([2, 2])), ms.Tensor([1.0, 2.0]), True)",
        "x.index_put((ms.Tensor([1]),), ms.Tensor([7.0]))"],
    'index_put_': [
        "(x.index_put_((ms.Tensor([0, 1]), ms.Tensor([2, 0])), ms.Tensor([9.0, 8.0])), x)",
        "(x.index_put_((ms.Tensor([0, 0]), ms.Tensor([2, 2])), ms.Tensor([1.0, 2.0]), True), x)"],
    'inplace_update': [
        "x.inplace_update(y[:1], ms.Tensor([1]))", "x.inplace_update(y, ms.Tensor([1, 0]))"],
    'select_scatter': [
        "x.select_scatter(v3, 0, 1)", "x.select_scatter(ms.Tensor([7.0, 8.0]), 1, 0)"],
    'slice_scatter': [
        "x.slice_scatter(y[:, :2], 1, 0, 2)", "x.slice_scatter(y[:1])",
        "x.slice_scatter(y[:, :2], axis=1, start=0, end=3, step=2)"],
    'masked_scatter_': ["(x.masked_scatter_(b, y), x)"],
    'put_': [
        "(x.put_(ms.Tensor([0, 4]), ms.Tensor([9.0, 8.0])), x)",
        "(x.put_(ms.Tensor([1, 1]), ms.Tensor([1.0, 2.0]), True), x)"],
    # ------------------------------------------------------------ in place
    'add_': [
        "(x.add_(y), x)", "(x.add_(2), x)", "(x.add_(y, alpha=2), x)", "(i.add_(2), i)",
        "(i.add_(1.5), i)"],
    'sub_': ["(x.sub_(y), x)", "(x.sub_(2), x)", "(x.sub_(y, alpha=2), x)"],
    'mul_': ["(x.mul_(y), x)", "(x.mul_(2), x)", "(i.mul_(2), i)"],
    'div_': ["(x.div_(y), x)", "(x.div_(2), x)", "(x.div_(y, rounding_mode='floor'), x)"],
    'floor_divide_': ["(x.floor_divide_(y), x)", "(i.floor_divide_(j), i)"],
    'remainder_': ["(x.remainder_(y), x)", "(i.remainder_(3), i)"],
    'addmm_': ["(m.addmm_(m, m), m)", "(m.addmm_(m, m, beta=0.5, alpha=2), m)"],
    'clamp_': ["(x.clamp_(0.0, 1.0), x)", "(x.clamp_(max=0.5), x)", "(x.clamp_(y, p), x)"],
    'exp_': ["(x.exp_(), x)"],
    'log_': ["(p.log_(), p)"],
    'floor_': ["(r.floor_(), r)"],
    'sigmoid_': ["(x.sigmoid_(), x)"],
    'tanh_': ["(x.tanh_(), x)"],
    'sign_': ["(x.sign_(), x)"],
    'erfinv_': ["(u.erfinv_(), u)"],
    'fill': ["x.fill(2.5)", "i.fill(2.5)", "x.fill(3)", "x.fill(4.0)", "x.fill(0.0)", "i.fill(0)"],
    'fills': ["x.fills(2.5)", "i.fills(2)"],
    'fill_': ["(x.fill_(2.5), x)", "(i.fill_(2.5), i)", "(x.fill_(ms.Tensor(4.0)), x)"],
    'zero_': ["(x.zero_(), x)", "(i.zero_(), i)"],
    'copy_': ["(x.copy_(y), x)", "(x.copy_(v3), x)", "(x.copy_(i), x)"],
    'masked_fill_': ["(x.masked_fill_(b, 0.0), x)", "(x.masked_fill_(b, ms.Tensor(2.0)), x)"],
    'fill_diagonal': [
        "m.fill_diagonal(9.0)", "x.fill_diagonal(9.0)",
        "ms.Tensor(np.zeros((5, 2), np.float32)).fill_diagonal(1.0)",
        "ms.Tensor(np.zeros((5, 2), np.float32)).fill_diagonal(1.0, True)"],
    'fill_diagonal_': ["(m.fill_diagonal_(9.0), m)", "(x.fill_diagonal_(9.0), x)"],
    # ------------------------------------------------------------ random
    'uniform': ["x.uniform()", "x.uniform(2.0, 3.0)", "i.uniform()"],
    'uniform_': ["x.uniform_()", "x.uniform_(2.0, 3.0)"],
    'normal_': ["x.normal_()", "x.normal_(1.0, 2.0)"],
    'exponential_': ["x.exponential_()", "x.exponential_(2.0)"],
    'random_': ["x.random_()", "x.random_(0, 5)", "i.random_(0, 5)"],
    'bernoulli': ["prob.bernoulli()"],
    'bernoulli_': ["x.bernoulli_()", "x.bernoulli_(0.3)", "i.bernoulli_(0.3)"],
    'cauchy': ["x.cauchy()", "x.cauchy(1.0, 2.0)"],
    'log_normal': ["x.log_normal()", "x.log_normal(0.5, 0.25)"],
    'multinomial': [
        "prob.multinomial(2)", "prob.multinomial(4, True)", "prob[0].multinomial(2, False)"],
}

#!/usr/bin/env python3
"""Writes the example models of the lite runtime into models/<name>/ (needs torch 2.13).

    python3 models/make_models.py [NAME ...]      (default: all of MODELS)

Each model is built with a fixed seed, put in eval mode and exported with
`torch.export.export`; the folder gets:

    model.pt2        torch.export.save of the exported program
    model.sopsm      the lite model file (lite/python/export_model.py's converter)
    input0.npy ...   the example inputs
    expected0.npy    eager PyTorch's outputs, model(*inputs) under torch.no_grad()
    ops.txt          the decomposed graph's operators (decomposed as the converter does,
                     decompose.py), sorted, one per line
    shapes.txt       every operator node's outputs: `name dtype [sizes]` (`name.K` when
                     a node has several outputs); operator.getitem nodes are left out
    torchscript.pt   torch.jit.trace of the model, for the libtorch baseline

The dynamic models (DYNAMIC: `bert_dynamic`, `llama_dynamic`) are the same modules
exported once with a symbolic batch (Dim "batch", max 8) and sequence (Dim "seq", 2 to
64) on dimensions 0 and 1 of every input (lite model format version 2); their folder
has model.pt2 (saved with the Dims' names, export_model.save_program), model.sopsm,
ops.txt, shapes.txt (sizes as torch.export's expressions of batch and seq), and for
each size of SIZES inputs and eager outputs `size<N>_input<K>.npy`,
`size<N>_expected<K>.npy`, listed in sizes.txt (`size<N> batch=B seq=S`).

Running it twice gives byte-identical files (each model is written by a process of its
own). The archives hold no stack traces or source ranges (portable_archives.py), so no
paths of the machine that made them.
"""

import math
import os
import subprocess
import sys
import warnings

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lite", "python"))

import export_model  # noqa: E402  (after the path above)
from decompose import decompose  # noqa: E402
from exported_graph import DROPPED, op_name  # noqa: E402
from portable_archives import export_without_stack_traces, strip_debug_info  # noqa: E402
from schema_args import TORCH_DTYPES  # noqa: E402
from symbolic import Symbols, dim_names  # noqa: E402

DTYPE_NAMES = {dtype: str(dtype).replace("torch.", "") for dtype in TORCH_DTYPES}


class Cnn(nn.Module):
    """Conv-BN-ReLU-MaxPool, Conv-Sigmoid-AvgPool, flatten, Linear, Softmax."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.pool2 = nn.AvgPool2d(2)
        self.fc = nn.Linear(32 * 8 * 8, 10)

    def forward(self, x):
        x = self.pool1(torch.relu(self.bn(self.conv1(x))))
        x = self.pool2(torch.sigmoid(self.conv2(x)))
        return torch.softmax(self.fc(torch.flatten(x, 1)), dim=1)


class Block(nn.Module):
    """A pre-norm transformer block over embedded tokens; token 0 is padding.

    The key padding mask is built from the tokens as an additive float mask (where(pad,
    -inf, 0)), which keeps eq, where, full_like, any and logical_not in the graph. A bool
    mask works too (nn.MultiheadAttention turns it into a float one with masked_fill,
    which decomposes to aten::scalar_tensor).
    """

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 64)
        self.ln1 = nn.LayerNorm(64)
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.ln2 = nn.LayerNorm(64)
        self.fc1 = nn.Linear(64, 256)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(256, 64)

    def forward(self, tokens):
        x = self.emb(tokens)
        zeros = torch.zeros_like(tokens, dtype=x.dtype)
        mask = torch.where(tokens == 0, torch.full_like(zeros, float("-inf")), zeros)
        h = self.ln1(x)
        a, _ = self.attn(h, h, h, key_padding_mask=mask, need_weights=False)
        x = x + a
        return x + self.fc2(self.act(self.fc1(self.ln2(x))))


class BertLayer(nn.Module):
    """Hugging Face's BertLayer: self-attention (sdpa), then a GELU FFN, each post-LN."""

    def __init__(self, hidden=64, heads=4, intermediate=128):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, mask):
        b, s, h = x.shape
        q, k, v = (
            proj(x).view(b, s, self.heads, -1).transpose(1, 2)
            for proj in (self.query, self.key, self.value)
        )
        a = nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = self.attn_norm(self.attn_out(a.transpose(1, 2).reshape(b, s, h)) + x)
        return self.out_norm(self.output(nn.functional.gelu(self.intermediate(x))) + x)


class Bert(nn.Module):
    """A BERT encoder as Hugging Face's BertModel computes it (no transformers needed).

    Word, learned position and token-type embeddings, LayerNorm; the attention mask
    (1 = token, 0 = padding) becomes HF's extended additive mask, (1 - mask[:, None,
    None, :]) * finfo(float32).min; two post-LN layers; the pooler, tanh(Linear) of the
    first token. Returns (sequence output, pooled output).
    """

    def __init__(self, vocab=100, hidden=64, positions=64, layers=2):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position = nn.Embedding(positions, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.register_buffer(
            "position_ids", torch.arange(positions).expand((1, -1)), persistent=False
        )
        self.register_buffer(
            "token_type_ids", torch.zeros((1, positions), dtype=torch.long), persistent=False
        )
        self.layers = nn.ModuleList(BertLayer(hidden) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, tokens, attention_mask):
        b, s = tokens.shape
        token_types = self.token_type_ids[:, :s].expand(b, s)
        x = self.word(tokens) + self.token_type(token_types)
        x = self.norm(x + self.position(self.position_ids[:, :s]))
        mask = attention_mask[:, None, None, :].to(x.dtype)
        mask = (1.0 - mask) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, mask)
        return x, torch.tanh(self.pooler(x[:, 0]))


class RMSNorm(nn.Module):
    """Hugging Face's LlamaRMSNorm: x / sqrt(mean(x^2) + eps), in float32, times a weight."""

    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class LlamaLayer(nn.Module):
    """Hugging Face's LlamaDecoderLayer: RoPE, grouped-query attention, SiLU-gated MLP."""

    def __init__(self, hidden=64, heads=4, kv_heads=2, intermediate=128):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, hidden // heads
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)
        self.input_norm = RMSNorm(hidden)
        self.post_attention_norm = RMSNorm(hidden)

    def repeat_kv(self, x):
        b, kv, s, d = x.shape
        n_rep = self.heads // kv
        return x[:, :, None, :, :].expand(b, kv, n_rep, s, d).reshape(b, kv * n_rep, s, d)

    def forward(self, x, cos, sin, mask):
        b, s, _ = x.shape
        h = self.input_norm(x)
        q = self.q_proj(h).view(b, s, -1, self.head_dim).transpose(1, 2)
        k = self.k_proj(h).view(b, s, -1, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).view(b, s, -1, self.head_dim).transpose(1, 2)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        a = nn.functional.scaled_dot_product_attention(
            q, self.repeat_kv(k), self.repeat_kv(v), attn_mask=mask
        )
        x = x + self.o_proj(a.transpose(1, 2).contiguous().reshape(b, s, -1))
        h = self.post_attention_norm(x)
        return x + self.down_proj(nn.functional.silu(self.gate_proj(h)) * self.up_proj(h))


class Llama(nn.Module):
    """A Llama decoder as Hugging Face's LlamaForCausalLM computes it, tied lm head.

    Rotary embeddings: cos and sin of the positions times the inverse frequencies,
    computed in forward (LlamaRotaryEmbedding); a causal bool mask from the positions
    (key position <= query position); 4 query heads sharing 2 key/value heads
    (repeat_kv); RMSNorm; the lm head is the embedding's weight. Returns the logits.
    """

    def __init__(self, vocab=100, hidden=64, heads=4, layers=2, theta=10000.0):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList(LlamaLayer(hidden, heads) for _ in range(layers))
        self.norm = RMSNorm(hidden)
        head_dim = hidden // heads
        inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float) / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, tokens):
        b, s = tokens.shape
        x = self.embed(tokens)
        positions = torch.arange(s)
        position_ids = positions[None, :].expand(b, s)
        freqs = self.inv_freq[None, :, None].expand(b, -1, 1) @ position_ids[:, None, :].float()
        emb = torch.cat((freqs.transpose(1, 2),) * 2, dim=-1)
        cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        mask = (positions[None, :] <= positions[:, None])[None, None]
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return nn.functional.linear(self.norm(x), self.embed.weight)


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.view(b, h // ws, ws, w // ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, c)


def window_reverse(windows, ws, h, w):
    c = windows.shape[-1]
    x = windows.view(-1, h // ws, w // ws, ws, ws, c)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, h, w, c)


class SwinBlock(nn.Module):
    """Hugging Face's SwinLayer: (shifted) window attention with a relative position
    bias gathered by an index buffer, then a GELU MLP, each pre-LN with a residual."""

    def __init__(self, dim, heads, ws, shift):
        super().__init__()
        self.heads, self.head_dim, self.ws, self.shift = heads, dim // heads, ws, shift
        self.norm1 = nn.LayerNorm(dim)
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)
        self.bias_table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij"))
        coords = torch.flatten(coords, 1)
        relative = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        relative[:, :, 0] += ws - 1
        relative[:, :, 1] += ws - 1
        relative[:, :, 0] *= 2 * ws - 1
        self.register_buffer("relative_position_index", relative.sum(-1), persistent=False)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def shift_mask(self, h, w, dtype):
        """SwinLayer.get_attn_mask: -100 between tokens of different regions of a window."""
        img_mask = torch.zeros((1, h, w, 1), dtype=dtype)
        slices = (slice(0, -self.ws), slice(-self.ws, -self.shift), slice(-self.shift, None))
        count = 0
        for hs in slices:
            for wsl in slices:
                img_mask[:, hs, wsl, :] = count
                count += 1
        windows = window_partition(img_mask, self.ws).view(-1, self.ws * self.ws)
        mask = windows.unsqueeze(1) - windows.unsqueeze(2)
        return mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)

    def attention(self, x, mask):
        bw, n, c = x.shape
        q, k, v = (
            proj(x).view(bw, n, self.heads, -1).permute(0, 2, 1, 3)
            for proj in (self.query, self.key, self.value)
        )
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        bias = self.bias_table[self.relative_position_index.view(-1)].view(n, n, -1)
        scores = scores + bias.permute(2, 0, 1).contiguous().unsqueeze(0)
        if mask is not None:
            windows = mask.shape[0]
            scores = scores.view(bw // windows, windows, self.heads, n, n)
            scores = (scores + mask.unsqueeze(1).unsqueeze(0)).view(-1, self.heads, n, n)
        a = torch.softmax(scores, dim=-1) @ v
        return self.proj(a.permute(0, 2, 1, 3).contiguous().view(bw, n, c))

    def forward(self, x, h, w):
        b, _, c = x.shape
        shortcut = x
        x = self.norm1(x).view(b, h, w, c)
        if self.shift:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        windows = window_partition(x, self.ws).view(-1, self.ws * self.ws, c)
        mask = self.shift_mask(h, w, x.dtype) if self.shift else None
        x = window_reverse(
            self.attention(windows, mask).view(-1, self.ws, self.ws, c), self.ws, h, w
        )
        if self.shift:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x.view(b, h * w, c)
        return x + self.fc2(nn.functional.gelu(self.fc1(self.norm2(x))))


class Swin(nn.Module):
    """A Swin transformer classifier, as Hugging Face's SwinModel computes it.

    Patch embedding (Conv2d 2x2, stride 2) and LayerNorm; two stages of two blocks
    (window 4, the second block's windows shifted by 2 with its attention mask), patch
    merging between them (2x2 neighbours concatenated, LayerNorm, Linear); LayerNorm,
    mean over tokens, Linear to 10 classes.
    """

    def __init__(self, dim=32, ws=4, classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 2, stride=2)
        self.patch_norm = nn.LayerNorm(dim)
        self.stage1 = nn.ModuleList(SwinBlock(dim, 2, ws, shift) for shift in (0, ws // 2))
        self.merge_norm = nn.LayerNorm(4 * dim)
        self.merge = nn.Linear(4 * dim, 2 * dim, bias=False)
        self.stage2 = nn.ModuleList(SwinBlock(2 * dim, 4, ws, shift) for shift in (0, ws // 2))
        self.norm = nn.LayerNorm(2 * dim)
        self.head = nn.Linear(2 * dim, classes)

    def forward(self, image):
        x = self.patch(image)
        b, c, h, w = x.shape
        x = self.patch_norm(x.flatten(2).transpose(1, 2))
        for block in self.stage1:
            x = block(x, h, w)
        x = x.view(b, h, w, c)
        parts = (x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2])
        h, w = h // 2, w // 2
        x = self.merge(self.merge_norm(torch.cat(parts, -1).view(b, h * w, 4 * c)))
        for block in self.stage2:
            x = block(x, h, w)
        return self.head(self.norm(x).mean(dim=1))


class ConvGnBlock(nn.Module):
    """GroupNorm, SiLU, Conv2d 3x3, twice, with a residual (a diffusion UNet's ResBlock)."""

    def __init__(self, channels_in, channels, groups=8):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, channels_in)
        self.conv1 = nn.Conv2d(channels_in, channels, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
        self.skip = nn.Conv2d(channels_in, channels, 1) if channels_in != channels else None

    def forward(self, x):
        h = self.conv1(nn.functional.silu(self.norm1(x)))
        h = self.conv2(nn.functional.silu(self.norm2(h)))
        return h + (self.skip(x) if self.skip is not None else x)


class ConvGn(nn.Module):
    """A tiny UNet: conv in, a GroupNorm block, a strided conv down, a block, bilinear
    upsampling x2, the skip concatenated, a block, GroupNorm, SiLU, conv out."""

    def __init__(self, channels=32):
        super().__init__()
        self.conv_in = nn.Conv2d(4, channels, 3, padding=1)
        self.block1 = ConvGnBlock(channels, channels)
        self.down = nn.Conv2d(channels, channels, 3, stride=2, padding=1)
        self.block2 = ConvGnBlock(channels, channels)
        self.block3 = ConvGnBlock(2 * channels, channels)
        self.norm_out = nn.GroupNorm(8, channels)
        self.conv_out = nn.Conv2d(channels, 4, 3, padding=1)

    def forward(self, x):
        skip = self.block1(self.conv_in(x))
        h = self.block2(self.down(skip))
        h = nn.functional.interpolate(h, scale_factor=2.0, mode="bilinear", align_corners=False)
        h = self.block3(torch.cat([h, skip], dim=1))
        return self.conv_out(nn.functional.silu(self.norm_out(h)))


def make_mlp():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10), nn.LogSoftmax(dim=1))
    return model.eval(), (torch.randn(4, 32),)


def make_cnn():
    torch.manual_seed(2)
    model = Cnn()
    model.train()
    with torch.no_grad():  # non-trivial running statistics for BatchNorm
        for _ in range(4):
            model(torch.randn(8, 3, 32, 32) * 2 + 0.5)
    return model.eval(), (torch.randn(2, 3, 32, 32),)


def make_transformer():
    torch.manual_seed(3)
    model = Block()
    tokens = torch.randint(1, 100, (2, 16))
    tokens[0, 11:] = 0  # padding at the ends; no row is all padding
    tokens[1, 14:] = 0
    return model.eval(), (tokens,)


def padded_tokens(vocab=100):
    """int64 [2, 16]; rows padded (token 0) from 11 and 14, none all padding."""
    tokens = torch.randint(1, vocab, (2, 16))
    tokens[0, 11:] = 0
    tokens[1, 14:] = 0
    return tokens


def make_bert():
    torch.manual_seed(4)
    model = Bert()
    tokens = padded_tokens()
    return model.eval(), (tokens, (tokens != 0).to(torch.int64))


def make_llama():
    torch.manual_seed(5)
    return Llama().eval(), (torch.randint(0, 100, (2, 16)),)


def make_vit_swin():
    torch.manual_seed(6)
    return Swin().eval(), (torch.randn(1, 3, 32, 32),)


def make_convgn():
    torch.manual_seed(7)
    model = ConvGn()
    with torch.no_grad():  # GroupNorm's affine parameters away from (1, 0)
        for module in model.modules():
            if isinstance(module, nn.GroupNorm):
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.2, 0.2)
    return model.eval(), (torch.randn(2, 4, 16, 16),)


MODELS = {
    "mlp": make_mlp,
    "cnn": make_cnn,
    "transformer": make_transformer,
    "bert": make_bert,
    "llama": make_llama,
    "vit_swin": make_vit_swin,
    "convgn": make_convgn,
}


# The dynamic exports: (folder, the static model it exports, Dims on dimensions 0 and 1
# of every input). Sizes 0 and 1 are specialized by torch.export, so the example
# inputs it traces with are the static models' [2, 16].
DYNAMIC = {
    "bert_dynamic": "bert",
    "llama_dynamic": "llama",
}
# The (batch, seq) sizes each dynamic model's files hold: both bounds and one between.
SIZES = ((1, 2), (3, 17), (8, 64))


def _dims():
    return torch.export.Dim("batch", max=8), torch.export.Dim("seq", min=2, max=64)


def _describe(val, symbols=None) -> list:
    """`dtype [sizes]` of each tensor in a node's meta['val'] (symbolic sizes as
    torch.export's expressions, the symbols named by `symbols`); a scalar's `SymInt expr`."""
    vals = val if isinstance(val, (list, tuple)) else [val]
    if symbols is not None:
        return [
            f"{DTYPE_NAMES[v.dtype]} {symbols.shape_text(v)}"
            if isinstance(v, torch.Tensor)
            else f"{type(v).__name__} {symbols.text(v)}"
            for v in vals
        ]
    return [f"{DTYPE_NAMES[v.dtype]} [{', '.join(str(int(s)) for s in v.shape)}]" for v in vals]


def graph_listing(ep, symbols=None) -> tuple:
    """ops.txt's and shapes.txt's text for a decomposed program (not our converter).

    The checks the converter leaves out (exported_graph.DROPPED: `.to()`'s
    `_assert_tensor_metadata`, which returns nothing) are not listed. `symbols` (a
    symbolic.Symbols that has met the inputs) names a dynamic program's symbols.
    """
    ops, lines = set(), []
    for node in ep.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        if op_name(node.target) in DROPPED:
            continue
        ops.add(op_name(node.target))
        described = _describe(node.meta["val"], symbols)
        multi = isinstance(node.meta["val"], (list, tuple))
        for k, text in enumerate(described):
            lines.append(f"{node.name}.{k} {text}" if multi else f"{node.name} {text}")
    return "".join(op + "\n" for op in sorted(ops)), "".join(line + "\n" for line in lines)


def write_eager_arrays(folder: str, prefix: str, model: nn.Module, inputs: tuple) -> None:
    """PREFIXinput<k>.npy for the inputs and PREFIXexpected<k>.npy for eager PyTorch's
    outputs, model(*inputs) under torch.no_grad()."""
    with torch.no_grad():
        outputs = model(*inputs)
    outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    for kind, tensors in (("input", inputs), ("expected", outputs)):
        for k, tensor in enumerate(tensors):
            np.save(os.path.join(folder, f"{prefix}{kind}{k}.npy"), tensor.numpy())


def write_texts(folder: str, files) -> None:
    """Each (file name, text) of `files` into folder."""
    for file, text in files:
        with open(os.path.join(folder, file), "w", encoding="utf-8") as f:
            f.write(text)


def write_model(name: str, model: nn.Module, inputs: tuple) -> None:
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.pt2")
    torch.export.save(export_without_stack_traces(torch.export.export(model, inputs)), path)
    with open(os.path.join(folder, "model.sopsm"), "wb") as f:
        f.write(export_model.convert(path))
    write_eager_arrays(folder, "", model, inputs)
    write_texts(
        folder, zip(("ops.txt", "shapes.txt"), graph_listing(decompose(torch.export.load(path))))
    )
    with torch.no_grad():
        torch.jit.save(torch.jit.trace(model, inputs), os.path.join(folder, "torchscript.pt"))
    strip_debug_info(os.path.join(folder, "torchscript.pt"))


def sized_inputs(base: str, batch: int, seq: int) -> tuple:
    """Inputs of `base` (bert or llama) at one size, from a seed of the size's own: bert's
    tokens with the last row padded from 3/4 of the sequence (never all padding) and its
    mask; llama's tokens."""
    torch.manual_seed(1000 + 100 * batch + seq)
    if base == "bert":
        tokens = torch.randint(1, 100, (batch, seq))
        tokens[-1, max(1, seq * 3 // 4) :] = 0
        return tokens, (tokens != 0).to(torch.int64)
    return (torch.randint(0, 100, (batch, seq)),)


def write_dynamic_model(name: str) -> None:
    base = DYNAMIC[name]
    model, inputs = MODELS[base]()
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.pt2")
    batch, seq = _dims()
    dynamic_shapes = tuple({0: batch, 1: seq} for _ in inputs)
    ep = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes)
    export_model.save_program(export_without_stack_traces(ep), path)
    with open(os.path.join(folder, "model.sopsm"), "wb") as f:
        f.write(export_model.convert(path))
    # Listed from the saved archive, as the converter reads it (the node names are the
    # loaded program's), with the Dims' names the in-memory program remembers.
    decomposed = decompose(torch.export.load(path))
    symbols = Symbols(decomposed, dim_names(ep))
    user_inputs = {i.name for i in _user_inputs(decomposed)}
    for node in decomposed.graph.nodes:
        if node.op == "placeholder" and node.name in user_inputs:
            symbols.input_sizes(node.meta["val"], node.name, node.name)
    write_texts(folder, zip(("ops.txt", "shapes.txt"), graph_listing(decomposed, symbols)))
    for n, (b, s) in enumerate(SIZES):
        write_eager_arrays(folder, f"size{n}_", model, sized_inputs(base, b, s))
    listing = "".join(f"size{n} batch={b} seq={s}\n" for n, (b, s) in enumerate(SIZES))
    write_texts(folder, [("sizes.txt", listing)])


def _user_inputs(ep) -> list:
    from torch.export.graph_signature import InputKind  # pylint: disable=import-outside-toplevel

    return [
        spec.arg for spec in ep.graph_signature.input_specs if spec.kind == InputKind.USER_INPUT
    ]


def main(argv) -> int:
    names = argv or list(MODELS) + list(DYNAMIC)
    unknown = [n for n in names if n not in MODELS and n not in DYNAMIC]
    if unknown:
        print(
            f"make_models.py: error: unknown model(s) {unknown}; known: "
            f"{list(MODELS) + list(DYNAMIC)}",
            file=sys.stderr,
        )
        return 1
    if len(names) > 1:
        # One process per model: tracing numbers the module classes a process has met
        # (`___torch_mangle_17`), so a torchscript.pt would depend on the models before it.
        for name in names:
            subprocess.run([sys.executable, os.path.abspath(__file__), name], check=True)
        return 0
    if names[0] in DYNAMIC:
        write_dynamic_model(names[0])
        print(f"models/{names[0]}: written")
        return 0
    model, inputs = MODELS[names[0]]()
    write_model(names[0], model, inputs)
    print(f"models/{names[0]}: written")
    return 0


if __name__ == "__main__":
    warnings.filterwarnings("ignore", category=FutureWarning)  # torch.export.load's pytree notices
    sys.exit(main(sys.argv[1:]))

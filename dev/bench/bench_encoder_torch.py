"""bench_encoder_torch: the PyTorch side of `make bench-encoder` (Debian's python3-torch, CPU).

The same shapes and tasks as dev/bench/bench_encoder.c, written the way the official ProbExpan
code runs them in PyTorch: a BERT encoder (post-LayerNorm, GELU, dropout 0.1 in training),
batches padded to their longest row with an attention mask, the bottom F layers frozen but
recomputed every step under no_grad, the whole top layer computed; the entity head (dense,
GELU, LayerNorm, decoder to V_e), label-smoothed KL (eta 0.075), AdamW; the contrastive step with
two views, a projection head H -> 256 -> 128 and a hard-negative-weighted InfoNCE loss. Random
weights, lengths uniform in 20..60 with one [MASK] each, V_e = 10,000. Prints one JSON line per
figure (samples/s = the median over the timed steps after one warm-up step; samples_per_cpu_s
per second of the process's CPU time), the fields of ../shared/peer/torch-cpu.jsonl. Run it with
OPENBLAS_NUM_THREADS = --threads: torch.set_num_threads does not reach OpenBLAS's own threads.

Usage: python3 bench_encoder_torch.py --threads N --seconds S [--config small|bert-base|all]
       [--task mep|cl|infer|all]"""
import argparse
import json
import math
import os
import statistics
import time

import torch
import torch.nn.functional as fn

V_E, VOCAB, MASK_ID = 10000, 30522, 103
SHAPES = {"small": (4, 256, 4, 1024, 0), "bert-base": (12, 768, 12, 3072, 11)}


class Layer(torch.nn.Module):
    def __init__(self, h, heads, ffn):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(h, 3 * h)
        self.out = torch.nn.Linear(h, h)
        self.ln1 = torch.nn.LayerNorm(h, eps=1e-12)
        self.up = torch.nn.Linear(h, ffn)
        self.down = torch.nn.Linear(ffn, h)
        self.ln2 = torch.nn.LayerNorm(h, eps=1e-12)
        self.drop = torch.nn.Dropout(0.1)

    def forward(self, x, bias):
        b, t, h = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(h // self.heads) + bias
        ctx = (self.drop(att.softmax(-1)) @ v).transpose(1, 2).reshape(b, t, h)
        x = self.ln1(x + self.drop(self.out(ctx)))
        return self.ln2(x + self.drop(self.down(fn.gelu(self.up(x)))))


class Model(torch.nn.Module):
    def __init__(self, layers, h, heads, ffn):
        super().__init__()
        self.word = torch.nn.Embedding(VOCAB, h)
        self.pos = torch.nn.Embedding(512, h)
        self.tok_type = torch.nn.Embedding(2, h)
        self.ln = torch.nn.LayerNorm(h, eps=1e-12)
        self.layers = torch.nn.ModuleList(Layer(h, heads, ffn) for _ in range(layers))
        self.dense = torch.nn.Linear(h, h)
        self.head_ln = torch.nn.LayerNorm(h, eps=1e-12)
        self.decoder = torch.nn.Linear(h, V_E)
        self.proj = torch.nn.Sequential(torch.nn.Linear(h, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128))

    def encode(self, ids, mask, frozen):
        t = ids.shape[1]
        bias = (1.0 - mask[:, None, None, :].float()) * -10000.0
        with torch.no_grad() if frozen else torch.enable_grad():
            x = self.ln(self.word(ids) + self.pos(torch.arange(t))[None] + self.tok_type(torch.zeros_like(ids)))
            for layer in self.layers[:frozen]:
                x = layer(x, bias)
        for layer in self.layers[frozen:]:
            x = layer(x, bias)
        return x[ids == MASK_ID]  # one [MASK] per row: [B, H]

    def entity_logp(self, hid):
        return self.decoder(self.head_ln(fn.gelu(self.dense(hid)))).log_softmax(-1)


def batch(n, gen):
    lens = torch.randint(20, 61, (n,), generator=gen)
    ids = torch.zeros(n, int(lens.max()), dtype=torch.long)
    for i, ln in enumerate(lens.tolist()):
        ids[i, :ln] = torch.randint(1000, VOCAB, (ln,), generator=gen)
        ids[i, 0], ids[i, ln - 1] = 101, 102
        ids[i, 1 + int(torch.randint(0, ln - 2, (1,), generator=gen))] = MASK_ID
    return ids, (ids != 0).long(), lens


def mep_loss(logp, labels, eta=0.075):
    target = torch.full_like(logp, eta / (V_E - 1)).scatter_(1, labels[:, None], 1 - eta)
    return fn.kl_div(logp, target, reduction="batchmean")


def hcl_loss(z1, z2, tau_plus=0.05, beta=1.0, t=0.5):
    z1, z2 = fn.normalize(z1, dim=-1), fn.normalize(z2, dim=-1)
    n = z1.shape[0]
    sim = torch.exp(z1 @ z2.T / t)
    pos = sim.diag()
    neg_mask = ~torch.eye(n, dtype=torch.bool)
    neg = sim[neg_mask].view(n, n - 1)
    imp = (beta * neg.log()).exp()
    reweight = (imp * neg).sum(-1) / imp.mean(-1)
    ng = ((-tau_plus * (n - 1) * pos + reweight) / (1 - tau_plus)).clamp(min=(n - 1) * math.exp(-1 / t))
    return -torch.log(pos / (pos + ng)).mean()


def run(config, task, bsz, threads, seconds):
    layers, h, heads, ffn, frozen = SHAPES[config]
    gen = torch.Generator().manual_seed(1234)
    torch.manual_seed(1234)
    m = Model(layers, h, heads, ffn)
    frozen_parts = [m.word, m.pos, m.tok_type, m.ln, *m.layers[:frozen]] if frozen else []
    frozen_ids = {id(p) for part in frozen_parts for p in part.parameters()}
    opt = torch.optim.AdamW([p for p in m.parameters() if id(p) not in frozen_ids], lr=1e-5)
    batches = [(batch(bsz, gen), batch(bsz, gen), torch.randint(0, V_E, (bsz,), generator=gen)) for _ in range(4)]

    def step(k):
        (ids, mask, lens), (ids2, mask2, _), labels = batches[k % len(batches)]
        if task == "infer":
            m.eval()
            with torch.no_grad():
                m.entity_logp(m.encode(ids, mask, 0)).exp()
        elif task == "mep":
            m.train()
            opt.zero_grad()
            mep_loss(m.entity_logp(m.encode(ids, mask, frozen)), labels).backward()
            opt.step()
        else:
            m.train()
            opt.zero_grad()
            loss = hcl_loss(m.proj(m.encode(ids, mask, frozen)), m.proj(m.encode(ids2, mask2, frozen)))
            (7.0 * loss).backward()
            opt.step()
        return lens, ids.shape[1]

    step(0)  # warm-up
    rates, real, padded, t_all, k, cpu0 = [], 0, 0, 0.0, 0, time.process_time()
    while t_all < seconds or k < 2:
        t0 = time.perf_counter()
        lens, width = step(k + 1)
        t = time.perf_counter() - t0
        rates.append(bsz / t)
        t_all += t
        real += int(lens.sum())
        padded += width * bsz
        k += 1
    return {"config": config, "task": task, "batch": bsz, "seq_len": 40, "samples_per_s": round(statistics.median(rates), 3),
            "samples_per_cpu_s": round(k * bsz / (time.process_time() - cpu0), 3),
            "seconds": round(t_all, 2), "threads": threads, "torch_version": torch.__version__, "frozen_layers": frozen,
            "num_entities": V_E, "sentences_per_sample": 2 if task == "cl" else 1,
            "mean_real_len": round(real / (k * bsz), 2), "mean_padded_len": round(padded / (k * bsz), 2),
            "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE", "(unset)")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--config", default="all")
    ap.add_argument("--task", default="all")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    for config in SHAPES:
        if a.config not in ("all", config):
            continue
        for task, bsz in (("mep", 32), ("cl", 32), ("infer", 128)):
            if a.task in ("all", task):
                print(json.dumps(run(config, task, bsz, a.threads, a.seconds)), flush=True)


if __name__ == "__main__":
    main()

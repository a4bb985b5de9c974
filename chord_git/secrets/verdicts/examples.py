"""Credentials published as documentation examples: benign by exact value, each with its source.

Tutorials, READMEs and agent memory quote these strings verbatim; they grant nothing. They are
matched exactly (by SHA-256 of the value, so this file does not itself hold token-shaped
strings), never by loosening a rule: a real key of the same shape is still a finding. Both layers
consult ``is_documentation_example``.
"""
from __future__ import annotations

from functools import lru_cache

from ...support.dataclass_lazy import dataclass
from .shapes import VERDICTS


@dataclass(frozen=True)
class DocumentationExample:
    sha256: int  # of the exact value (an int literal: a quoted hex string reads as a secret to scanners)
    looks_like: str  # its first characters and length, for people reading this table
    what: str
    source: str


DOCUMENTATION_EXAMPLES: tuple[DocumentationExample, ...] = (
    DocumentationExample(0x1a5d44a2dca19669d72edf4c4f1c27c4c1ca4b4408fbb17f6ce4ad452d78ddb3, "AKIAIOSF… (20)",
                         "AWS example access key id",
                         "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html"),
    DocumentationExample(0x78314b11be2e581549ac1c4f616563fad3fdf0c3b71678f6e2299182080e0598, "wJalrXUt… (40)",
                         "AWS example secret access key",
                         "https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html"),
    DocumentationExample(0xc6ea27c534f993d31f0aef882e3d200e7b87470c379ae79c8f9b19d3bd363dc9, "AKIAI44Q… (20)",
                         "AWS example access key id (second pair)",
                         "https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html"),
    DocumentationExample(0xe21b597ba6b9cafa59d9ebc4d65c0385f5eb3fa56abab2607fa76589ad849a33, "je7MtGbC… (40)",
                         "AWS example secret access key (second pair)",
                         "https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html"),
    DocumentationExample(0x7f75367e7881255134e1375e723d1dea8ad5f6a4fdb79d938df1f1754a830606, "eyJhbGci… (155)",
                         "jwt.io debugger sample token (HS256, John Doe, iat 1516239022)", "https://jwt.io/"),
    DocumentationExample(0xc794fa6d20c64efb9adf980ae93af472a1679775862d421ffe55d4a57fad5b3e, "eyJhbGci… (172)",
                         "jwt.io debugger sample token since 2025 (adds \"admin\": true)", "https://jwt.io/"),
    DocumentationExample(0xbf145d9380bbe05bdc1a72525796b224f8a8c93ae0e9e102eafbc255ac1af9e8, "eyJhbGci… (105)",
                         "PyJWT README example ({\"some\": \"payload\"} signed with \"secret\")",
                         "https://github.com/jpadilla/pyjwt#usage"),
    DocumentationExample(0x731fa294d036e54f19df879bfcd4fe72d967dc6327800c5f74a48414a3f258c9, "123456:A… (41)",
                         "Telegram Bot API documentation example token",
                         "https://core.telegram.org/bots/api#authorizing-your-bot"),
    DocumentationExample(0x2cafc0970149a84f3b9e62eaf169f36f59907a3b3e31f7b82e68c69cd27f7326, "sk_test_… (32)",
                         "Stripe API reference sample test secret key", "https://docs.stripe.com/api/authentication"),
    DocumentationExample(0xb1471f544ceeea31333bde7e1ecbaad6eac0d4a749412ad29bd66ef895b81c6b, "pk_test_… (32)",
                         "Stripe documentation sample publishable key", "https://docs.stripe.com/keys"),
    # Google API keys published in the Firebase Android SDK's sources and tests, listed as public
    # examples in gitleaks' gcp-api-key rule (cmd/generate/config/rules/gcp.go).
    *(DocumentationExample(digest, f"{start}… (39)", "Firebase Android SDK example Google API key",
                           "https://github.com/firebase/firebase-android-sdk")
      for digest, start in (
          (0xf56e323494a6ffc2064e7a955908957d84f0755e5f975dabd64328d0359a8f7c, "AIzaSyab"),
          (0x2037abcaffb2b77785da716cf7ccff4ff4d00c4ea930db0167b7d71f50af7eb4, "AIzaSyAn"),
          (0x3f370c9dd8225c63b5c77de1f785edc9712958f18bb612d5fa2e0ae33aeca682, "AIzaSyCk"),
          (0xe4a5542bb7fd7b67e943c71ad29c34b5972c9840597e7eda53e666f44d5da0b9, "AIzaSyDM"),
          (0xa19f89ab3555eac10c40741f6df79ecf0935998f15569f8db9d67bce0181fff6, "AIzaSyD3"),
          (0x0b476bdf9acf2123d547b5ae76f1e59884d8ec9553ee0c47e9f31fd4768f3f3c, "AIzayDNS"),
          (0xeb540d2b6ee2a0a47c5779bc8a0141784c6b753840d4c6f4e2428a6e86e9e0b1, "AIzaSyAd"),
          (0x37f8f09bdf12c2f2eae4ead7273a62ddb0c23459cbf902892f282b57f7ed6619, "AIzaSyAS"),
          (0x8731261cb72d86267a32a532ebd3df429e2144e5e4ced7e13568bc9e6c8fb1b1, "AIzaSyAN"),
          (0x49f777db995e8260da7ca9ffdf0c08d66f0453e97ec967018baf2cdfe3b582d0, "AIzaSyA5"),
          (0x27a9a42931dff7eb2f8434e20a9bce976ea364e7bee49187f19d5cfeca9c7045, "AIzaSyA4"),
          (0xdc0fcf046c61640cbd1e8b999ada3262d722c2ca4bf42dceac999020ffdbb614, "AIzaSyDS"),
          (0x4c98242dcadc8b29005c6b4aad526552d5ea1842149154c0694adeec75847583, "AIzaSyBF"),
          (0xea9bb1082cf95663f5faca23b8b15ef2aa0fce0a5c6df9c32dcb85b2e0a4513d, "AIzaSyBc"),
          (0x3a8b61d0f636b007840c0d40ba12bcf48465dc054cdc1a68704a33521d84b665, "AIzaSyB8"),
          (0xa6c814bc555ae62c7bd8b58ec07bf559c7ed3a009976a1e0acc9cef0d4473b41, "AIzaSyA8"),
      )),
    # The clear-text passwords of the NuGet.Config reference's example (quoted in its translations
    # and in tools' tests), allowlisted by gitleaks' nuget-config-password rule.
    *(DocumentationExample(digest, looks_like, "NuGet.Config reference example ClearTextPassword",
                           "https://learn.microsoft.com/nuget/reference/nuget-config-file#packagesourcecredentials")
      for digest, looks_like in (
          (0xdba72c00f41f4e4c435e2491a5e1ce0140c7b5a6a498dc4847396b5e6368970c, "33f!… (11)"),
          (0xa0702bc91d699f600970f4dc4992b13ede1a29d49fa0942dd4bed2b5e4b1016e, "hal+… (14)"),
      )),
)
_DIGESTS = frozenset(example.sha256 for example in DOCUMENTATION_EXAMPLES)
_SHORTEST, _LONGEST = 11, 200  # the shortest listed value is 11 characters, the longest under 200


@lru_cache(maxsize=VERDICTS)
def is_documentation_example(value: str) -> bool:
    """True when ``value`` (quotes and surrounding space ignored) is a listed documentation example."""
    v = value.strip().strip("\"'`")
    if not _SHORTEST <= len(v) <= _LONGEST:
        return False
    import hashlib  # off the hook's start-up (OpenSSL): only a candidate value gets here

    return int.from_bytes(hashlib.sha256(v.encode("utf-8", "replace")).digest(), "big") in _DIGESTS


__all__ = ["DOCUMENTATION_EXAMPLES", "DocumentationExample", "is_documentation_example"]

"""The detector table of layer 1 (R31): one declarative list per detector family.

Each entry names a kind, the compiled pattern and the public format it follows. Formats marked
"gitleaks" follow the rule of that id in gitleaks' default config (MIT,
https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml), which in turn cites the
vendor; the others cite the vendor's documentation.

Performance rule for every pattern here: it must start with a literal (so ``re`` can use its fast
prefix search) or be applied only at a token start the engine already found, and every repeat
is bounded or runs over a class that cannot overlap what follows it. No pattern may backtrack
more than a bounded amount per start position.
"""
from __future__ import annotations

import re

from ...support.dataclass_lazy import dataclass
from ...support.regex_lazy import lazy

# A token ends where token characters end; exact-length formats rely on it.
_END = r"(?![A-Za-z0-9_\-])"
_END_B64 = r"(?![A-Za-z0-9_\-+/=])"
JWT_BASE64_MAX = 20000  # the longest body of a base64'd JWT (``formats`` measures it without the pattern)


@dataclass(frozen=True)
class TokenFormat:
    """A token recognised by its literal prefix, matched where a token starts."""

    kind: str
    prefixes: tuple[str, ...]
    pattern: re.Pattern[str]
    source: str
    check: str = "placeholder"  # placeholder | jwt | jwt-base64


@dataclass(frozen=True)
class TextFormat:
    """A secret found by searching the whole text for a literal (or digit) lead."""

    kind: str
    pattern: re.Pattern[str]
    source: str
    group: str | int = 0  # the secret part of the match
    back: re.Pattern[str] | None = None  # must match right before the match; extends the span


def _tok(kind: str, prefixes: str | tuple[str, ...], body: str, source: str,
         *, end: str = _END, check: str = "placeholder") -> TokenFormat:
    pre = (prefixes,) if isinstance(prefixes, str) else prefixes
    lead = "|".join(re.escape(p) for p in pre)
    return TokenFormat(kind, pre, lazy(f"(?:{lead}){body}{end}"), source, check)


# Tokens with a vendor prefix. Bodies use the character sets and lengths of the public formats.
TOKEN_FORMATS: tuple[TokenFormat, ...] = (
    # AWS access key ids: https://docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html
    _tok("aws-access-key-id", ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"), r"[A-Z0-9]{16,17}",
         "AWS IAM unique id prefixes"),
    _tok("aws-bedrock-api-key", "ABSK", r"[A-Za-z0-9+/]{109,269}={0,2}", "gitleaks aws-amazon-bedrock-api-key-long-lived", end=_END_B64),
    _tok("aws-bedrock-api-key", "bedrock-api-key-", r"YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%_-]{0,1000}",
         "gitleaks aws-amazon-bedrock-api-key-short-lived", end=_END_B64),
    # GCP API keys: https://cloud.google.com/docs/authentication/api-keys
    _tok("gcp-api-key", "AIza", r"[\w-]{35}", "Google API key format"),
    # GitHub: https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/
    _tok("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"[A-Za-z0-9]{36}", "GitHub token prefixes"),
    _tok("github-token", "github_pat_", r"[A-Za-z0-9_]{82}", "GitHub fine-grained PAT"),
    # GitLab: https://docs.gitlab.com/ee/security/token_overview.html#token-prefixes
    _tok("gitlab-token", "glpat-", r"(?:[\w-]{20}|[\w-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7})", "GitLab personal token"),
    _tok("gitlab-token", ("gldt-", "glft-", "glsoat-", "glrt-", "glffct-", "GR1348941"), r"[A-Za-z0-9_\-]{20,50}",
         "GitLab deploy/feed/OAuth/runner tokens (detect-secrets GitLabTokenDetector)"),
    _tok("gitlab-token", "glrt-", r"t\d_[0-9a-zA-Z_\-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}", "GitLab routable runner token"),
    _tok("gitlab-token", "glcbt-", r"(?:[0-9a-fA-F]{1,5}_)?[A-Za-z0-9_\-]{20,50}", "GitLab CI/CD job token"),
    _tok("gitlab-token", "glimt-", r"[A-Za-z0-9_\-]{25}", "GitLab incoming mail token"),
    _tok("gitlab-token", "glptt-", r"[A-Za-z0-9_\-]{40}", "GitLab pipeline trigger token"),
    _tok("gitlab-token", "glagent-", r"[A-Za-z0-9_\-]{50,1024}", "GitLab agent token"),
    _tok("gitlab-token", "gloas-", r"[A-Za-z0-9_\-]{64}", "GitLab OAuth application secret"),
    _tok("gitlab-token", "_gitlab_session=", r"[0-9a-z]{32}", "gitleaks gitlab-session-cookie"),
    # Slack: https://api.slack.com/authentication/token-types
    _tok("slack-token", ("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-"),
         r"(?:\d+-)+[A-Za-z0-9]{10,}(?:-[A-Za-z0-9]+)*", "Slack bot/user/legacy tokens"),
    _tok("slack-token", ("xoxa-", "xoxr-"), r"(?:\d-)?[0-9a-zA-Z]{8,48}", "Slack legacy workspace token", check="random"),
    _tok("slack-token", ("xoxe.xoxb-", "xoxe.xoxp-", "xoxe-"), r"\d-[A-Za-z0-9]{100,200}", "Slack configuration tokens"),
    _tok("slack-token", "xapp-", r"\d-[A-Z0-9]{9,}-\d{9,}-[a-z0-9]{32,}", "Slack app-level token"),
    # Discord bot tokens: base64(user id) . timestamp . HMAC (detect-secrets DiscordBotTokenDetector)
    _tok("discord-bot-token", ("M", "N", "O"), r"[A-Za-z\d_-]{23,25}\.[\w-]{6}\.[\w-]{27,38}", "Discord bot token", check="random"),
    # Stripe: https://stripe.com/docs/keys
    _tok("stripe-key", ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
         r"[A-Za-z0-9]{10,99}", "Stripe secret and restricted keys"),
    # Shopify: https://shopify.dev/docs/apps/auth
    _tok("shopify-token", ("shpat_", "shpca_", "shppa_", "shpss_"), r"[a-fA-F0-9]{32}", "Shopify token prefixes"),
    # SendGrid: https://docs.sendgrid.com/ui/account-and-settings/api-keys
    _tok("sendgrid-api-key", "SG.", r"[\w\-]{22}\.[\w\-]{43}", "SendGrid API key"),
    # Twilio: https://www.twilio.com/docs/iam/api-keys
    _tok("twilio-api-key", ("SK", "AC"), r"[0-9a-fA-F]{32}", "Twilio API key / account SID", check="random"),
    # OpenAI: https://platform.openai.com/docs/api-reference/authentication
    _tok("openai-api-key", ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"),
         r"[A-Za-z0-9_\-]{20,200}T3BlbkFJ[A-Za-z0-9_\-]{20,200}", "OpenAI project/service keys"),
    _tok("openai-api-key", "sk-", r"[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", "OpenAI legacy key"),
    # Anthropic: https://docs.anthropic.com/en/api/getting-started
    _tok("anthropic-api-key", ("sk-ant-api03-", "sk-ant-admin01-"), r"[\w\-]{93}AA", "Anthropic API key"),
    # Hugging Face: https://huggingface.co/docs/hub/security-tokens
    _tok("huggingface-token", "hf_", r"[A-Za-z]{34}", "Hugging Face user token"),
    _tok("huggingface-token", "api_org_", r"[A-Za-z]{34}", "Hugging Face org token"),
    # Package registries.
    _tok("npm-token", "npm_", r"[A-Za-z0-9]{36}", "npm granular/automation token"),
    _tok("pypi-token", "pypi-", r"AgE[A-Za-z0-9\-_]{50,1000}", "PyPI API token (macaroon)"),
    _tok("dockerhub-token", "dckr_pat_", r"[A-Za-z0-9_\-]{27,}", "Docker Hub personal access token"),
    _tok("rubygems-token", "rubygems_", r"[a-f0-9]{48}", "gitleaks rubygems-api-token"),
    _tok("clojars-token", "CLOJARS_", r"[a-z0-9]{60}", "gitleaks clojars-api-token"),
    _tok("artifactory-token", "AKCp", r"[A-Za-z0-9]{69}", "JFrog Artifactory API key"),
    _tok("artifactory-token", "cmVmd", r"[A-Za-z0-9]{59}", "JFrog reference token"),
    # JWTs: RFC 7519 (header.payload[.signature], base64url JSON); decoded before reporting.
    _tok("jwt", "eyJ", r"[A-Za-z0-9_\-]{8,2000}={0,2}\.eyJ[A-Za-z0-9_\-]{4,10000}={0,2}(?:\.[A-Za-z0-9_\-+/=]{0,2000})?",
         "RFC 7519 compact serialisation", end=_END_B64, check="jwt"),
    _tok("jwt", "ZXlK", rf"[A-Za-z0-9+/_\-]{{40,{JWT_BASE64_MAX}}}={{0,2}}", "base64 of a JWT (gitleaks jwt-base64)",
         end=_END_B64, check="jwt-base64"),
    # Other SaaS and infrastructure tokens with a fixed prefix (gitleaks rule ids in the source).
    _tok("age-secret-key", "AGE-SECRET-KEY-1", r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "age secret key (bech32)"),
    _tok("alibaba-access-key-id", "LTAI", r"[a-zA-Z0-9]{20}", "gitleaks alibaba-access-key-id"),
    _tok("adobe-client-secret", "p8e-", r"[a-zA-Z0-9]{32}", "gitleaks adobe-client-secret"),
    _tok("airtable-token", "pat", r"[a-zA-Z0-9]{14}\.[a-f0-9]{64}", "gitleaks airtable-personnal-access-token", check="random"),
    _tok("atlassian-api-token", "ATATT3", r"[A-Za-z0-9_\-=]{186}", "gitleaks atlassian-api-token"),
    _tok("authress-key", ("sc_", "ext_", "scauth_", "authress_"), r"[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120}",
         "gitleaks authress-service-client-access-key", end=_END_B64),
    _tok("clickhouse-secret", "4b1d", r"[A-Za-z0-9]{38}", "gitleaks clickhouse-cloud-api-secret-key"),
    _tok("cloudflare-origin-ca-key", "v1.0-", r"[a-f0-9]{24}-[a-f0-9]{146}", "gitleaks cloudflare-origin-ca-key"),
    _tok("databricks-token", "dapi", r"[a-f0-9]{32}(?:-\d)?", "gitleaks databricks-api-token"),
    _tok("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"[a-f0-9]{64}", "gitleaks digitalocean-*"),
    _tok("doppler-token", "dp.pt.", r"[a-zA-Z0-9]{43}", "gitleaks doppler-api-token"),
    _tok("duffel-token", ("duffel_test_", "duffel_live_"), r"[a-zA-Z0-9_\-=]{43}", "gitleaks duffel-api-token"),
    _tok("dynatrace-token", "dt0c01.", r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", "gitleaks dynatrace-api-token"),
    _tok("easypost-token", ("EZAK", "EZTK"), r"[A-Za-z0-9]{54}", "gitleaks easypost-api-token"),
    _tok("facebook-page-token", ("EAAM", "EAAC"), r"[A-Za-z0-9]{100,}", "gitleaks facebook-page-access-token"),
    _tok("flutterwave-key", ("FLWPUBK_TEST-", "FLWSECK_TEST-", "FLWPUBK-", "FLWSECK-"), r"[a-hA-H0-9]{12,32}(?:-X)?",
         "gitleaks flutterwave-*"),
    _tok("flyio-token", "fo1_", r"[\w-]{43}", "gitleaks flyio-access-token"),
    _tok("flyio-token", ("fm1r_", "fm1a_", "fm2_"), r"[A-Za-z0-9+/]{100,}={0,3}", "gitleaks flyio-access-token", end=_END_B64),
    _tok("frameio-token", "fio-u-", r"[A-Za-z0-9\-_=]{64}", "gitleaks frameio-api-token"),
    _tok("grafana-token", "glc_", r"[A-Za-z0-9+/]{32,400}={0,3}", "gitleaks grafana-cloud-api-token", end=_END_B64),
    _tok("grafana-token", "glsa_", r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", "gitleaks grafana-service-account-token"),
    _tok("grafana-token", "eyJrIjoi", r"[A-Za-z0-9]{70,400}={0,3}", "gitleaks grafana-api-key", end=_END_B64),
    _tok("harness-token", ("pat.", "sat."), r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}", "gitleaks harness-api-key"),
    _tok("heroku-api-key", "HRKU-AA", r"[0-9a-zA-Z_\-]{58}", "gitleaks heroku-api-key-v2"),
    _tok("infracost-token", "ico-", r"[a-zA-Z0-9]{32}", "gitleaks infracost-api-token"),
    _tok("intra42-secret", ("s-s4t2ud-", "s-s4t2af-"), r"[a-f0-9]{64}", "gitleaks intra42-client-secret"),
    _tok("linear-api-key", "lin_api_", r"[A-Za-z0-9]{40}", "gitleaks linear-api-key"),
    _tok("mapbox-token", ("pk.", "sk."), r"[a-zA-Z0-9]{60}\.[a-zA-Z0-9_\-]{22}", "gitleaks mapbox-api-token"),
    _tok("newrelic-key", ("NRAK-", "NRII-", "NRJS-"), r"[A-Za-z0-9\-]{19,32}", "gitleaks new-relic-*"),
    _tok("notion-token", "ntn_", r"\d{11}[A-Za-z0-9]{35}", "gitleaks notion-api-token"),
    # Kingfisher's rules (data/rules/*.yml), prefixes the other rule sets lack.
    _tok("google-oauth-client-secret", "GOCSPX-", r"[a-zA-Z0-9_\-]{28}", "Kingfisher google.2"),
    _tok("ionic-token", "ion_", r"[A-Za-z0-9]{42}", "Kingfisher ionic.1"),
    _tok("mongodb-atlas-secret", "mdb_sa_sk_", r"[0-9a-zA-Z_\-]{6}[0-9a-zA-Z]{34}", "Kingfisher mongodb.4"),
    _tok("nuget-api-key", "oy2", r"[a-z0-9]{43}", "Kingfisher nuget.1"),
    _tok("dependency-track-key", "odt_", r"[A-Za-z0-9]{32,255}", "Kingfisher dtrack.1"),
    _tok("stackhawk-api-key", "hawk.", r"[0-9A-Za-z_\-]{20}\.[0-9A-Za-z_\-]{20}", "Kingfisher stackhawk.1"),
    _tok("teamwork-token", "tkn.v1_", r"[0-9A-Za-z]{71}=", "Kingfisher teamworkcrm.1", end=_END_B64),
    _tok("ecostruxure-it-key", "AK1", r"[0-9a-zA-Z/]{50,55}", "Kingfisher ecostruxureit.1"),
    _tok("octopus-api-key", "API-", r"[A-Z0-9]{26}", "gitleaks octopus-deploy-api-key"),
    _tok("onepassword-token", "ops_eyJ", r"[A-Za-z0-9+/]{250,}={0,3}", "gitleaks 1password-service-account-token", end=_END_B64),
    _tok("onepassword-secret-key", "A3-", r"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
         "gitleaks 1password-secret-key"),
    _tok("openshift-token", "sha256~", r"[\w-]{43}", "gitleaks openshift-user-token"),
    _tok("perplexity-api-key", "pplx-", r"[A-Za-z0-9]{48}", "gitleaks perplexity-api-key"),
    _tok("planetscale-token", ("pscale_pw_", "pscale_tkn_", "pscale_oauth_"), r"[\w=.\-]{32,64}", "gitleaks planetscale-*"),
    _tok("plaid-token", ("access-sandbox-", "access-development-", "access-production-"),
         r"[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}", "gitleaks plaid-api-token"),
    _tok("postman-token", "PMAK-", r"[a-fA-F0-9]{24}-[a-fA-F0-9]{34}", "gitleaks postman-api-token"),
    _tok("prefect-token", "pnu_", r"[a-zA-Z0-9]{36}", "gitleaks prefect-api-token"),
    _tok("pulumi-token", "pul-", r"[a-f0-9]{40}", "gitleaks pulumi-api-token"),
    _tok("readme-token", "rdme_", r"[a-z0-9]{70}", "gitleaks readme-api-token"),
    _tok("scalingo-token", "tk-us-", r"[\w-]{48}", "gitleaks scalingo-api-token"),
    _tok("sendinblue-token", "xkeysib-", r"[a-f0-9]{64}-[a-zA-Z0-9]{16}", "gitleaks sendinblue-api-token"),
    _tok("sentry-token", "sntrys_", r"eyJpYXQiO[A-Za-z0-9+/]{10,400}={0,2}_[A-Za-z0-9+/]{43}", "gitleaks sentry-org-token",
         end=_END_B64),
    _tok("sentry-token", "sntryu_", r"[a-f0-9]{64}", "gitleaks sentry-user-token"),
    _tok("settlemint-token", ("sm_pat_", "sm_aat_", "sm_sat_"), r"[a-zA-Z0-9]{16}", "gitleaks settlemint-*"),
    _tok("shippo-token", ("shippo_live_", "shippo_test_"), r"[a-fA-F0-9]{40}", "gitleaks shippo-api-token"),
    _tok("sourcegraph-token", "sgp_", r"(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}", "gitleaks sourcegraph-access-token"),
    _tok("square-token", ("sq0atp-", "sq0csp-"), r"[\w\-\\]{22,60}", "gitleaks square-access-token / square-secret"),
    _tok("square-token", "EAAA", r"[\w\-]{60}", "gitleaks square-access-token"),
    _tok("typeform-token", "tfp_", r"[a-z0-9\-_.=]{59}", "gitleaks typeform-api-token"),
    _tok("vault-token", "hvs.", r"[\w-]{90,120}", "HashiCorp Vault service token"),
    _tok("vault-token", "hvb.", r"[\w-]{138,300}", "HashiCorp Vault batch token"),
    _tok("vault-token", "s.", r"[A-Za-z0-9]{24}", "HashiCorp Vault legacy service token", check="random"),
    _tok("yandex-token", ("YC",), r"[a-zA-Z0-9_\-]{38}", "gitleaks yandex-aws-access-token", check="random"),
    _tok("yandex-token", ("AQVN",), r"[A-Za-z0-9_\-]{35,38}", "gitleaks yandex-api-key", check="random"),
    _tok("yandex-token", ("t1.",), r"[A-Z0-9a-z_-]+={0,2}\.[A-Z0-9a-z_-]{86}={0,2}", "gitleaks yandex-access-token", end=_END_B64),
    _tok("lob-api-key", ("live_", "test_"), r"(?:pub_)?[a-f0-9]{31,35}", "gitleaks lob-*", check="random"),
    _tok("gocardless-token", "live_", r"[a-zA-Z0-9\-_=]{40}", "gitleaks gocardless-api-token", check="random"),
    _tok("mailgun-key", ("key-", "pubkey-"), r"[a-f0-9]{32}", "gitleaks mailgun-*", check="random"),
    # Prefixed tokens of AI, payment and SaaS vendors, as their documentation and TruffleHog's
    # detectors (read, not copied: bench/vendor_prefixes.py) describe them.
    _tok("openrouter-api-key", "sk-or-v1-", r"[0-9a-f]{64}", "OpenRouter API key"),
    _tok("groq-api-key", "gsk_", r"[a-zA-Z0-9]{52}", "Groq API key"),
    _tok("replicate-api-token", "r8_", r"[0-9A-Za-z_\-]{37}", "Replicate API token"),
    _tok("google-oauth-token", "ya29.", r"[0-9A-Za-z_\-]{20,2048}", "Google OAuth 2.0 access token", check="random"),
    _tok("stripe-key", "whsec_", r"[A-Za-z0-9+/]{32,128}={0,2}", "Stripe webhook signing secret", end=_END_B64),
    _tok("stripe-key", ("sk_live_", "rk_live_"), r"[A-Za-z0-9\-]{100,247}", "Stripe long secret and restricted keys"),
    _tok("stripe-key", "pi_", r"[a-zA-Z0-9]{24}_secret_[a-zA-Z0-9]{25}", "Stripe PaymentIntent client secret"),
    _tok("notion-token", "secret_", r"[A-Za-z0-9]{43}", "Notion internal integration secret", check="random"),
    _tok("figma-token", ("figd_", "figu_", "figo_", "figur_", "figoh_", "figuh_", "figor_"), r"[A-Za-z0-9_\-]{40,64}",
         "Figma personal and OAuth tokens"),
    _tok("figma-token", "figp_", r"[a-zA-Z0-9_=\-]{40,54}", "Figma plugin token"),
    _tok("xai-api-key", "xai-", r"[0-9a-zA-Z_]{80}", "xAI API key"),
    _tok("nvidia-api-key", "nvapi-", r"[a-zA-Z0-9_\-]{64}", "NVIDIA API key"),
    _tok("langsmith-api-key", ("lsv2_pt_", "lsv2_sk_"), r"[a-f0-9]{32}_[a-f0-9]{10}", "LangSmith API key"),
    _tok("pinecone-api-key", "pcsk_", r"[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}", "Pinecone API key"),
    _tok("posthog-token", "phx_", r"[a-zA-Z0-9_]{43,48}", "PostHog personal API key"),
    _tok("supabase-token", "sbp_", r"[a-z0-9]{40}", "Supabase access token"),
    _tok("tailscale-key", "tskey-", r"[a-z]+-[0-9A-Za-z_]{4,64}-[0-9A-Za-z_]{8,64}", "Tailscale auth and API keys"),
    _tok("razorpay-key", "rzp_live_", r"[A-Za-z0-9]{14}", "Razorpay live key id"),
    _tok("apify-token", "apify_api_", r"[a-zA-Z0-9]{36}", "Apify API token"),
    _tok("adafruit-io-key", "aio_", r"[a-zA-Z0-9]{28}", "Adafruit IO key", check="random"),
    _tok("contentful-token", "CFPAT-", r"[a-zA-Z0-9_\-]{43}", "Contentful personal access token"),
    _tok("bitbucket-token", "BBDC-", r"[A-Za-z0-9+/@_\-]{40,50}", "Bitbucket Data Center HTTP access token", end=_END_B64),
    _tok("newrelic-key", "NRBR-", r"[0-9a-f]{19}", "New Relic browser key"),
    _tok("newrelic-key", "NRIQ-", r"[a-zA-Z0-9_\-]{25}", "New Relic insights query key"),
    _tok("sourcegraph-token", "slk_", r"[a-f0-9]{64}", "Sourcegraph Cody token"),
    _tok("flexport-token", "shltm_", r"[0-9a-zA-Z_\-]{40}", "Flexport API key"),
    _tok("sonarqube-token", ("sqco_", "squ_", "sqp_", "sqa_"), r"[0-9a-zA-Z]{40,59}", "SonarQube/SonarCloud tokens"),
    _tok("cloudflare-token", "cfk_", r"[a-zA-Z0-9]{40}[a-f0-9]{8}", "Cloudflare API key"),
    _tok("buildkite-token", "bkua_", r"[a-z0-9]{40}", "Buildkite user access token"),
    _tok("circleci-token", ("CCIPAT_", "CCIPRJ_"), r"[a-zA-Z0-9]{22}_[a-fA-F0-9]{40}", "CircleCI personal and project tokens"),
    _tok("rootly-token", "rootly_", r"[a-f0-9]{64}", "Rootly API key"),
    _tok("saladcloud-key", "salad_cloud_", r"[0-9A-Za-z]{1,7}_[0-9A-Za-z]{7,235}", "SaladCloud API key"),
    _tok("ramp-key", ("ramp_id_", "ramp_sec_"), r"[A-Za-z0-9]{40,48}", "Ramp client id and secret"),
    _tok("robinhood-key", "rh-api-", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
         "Robinhood crypto API key"),
    _tok("trufflehog-key", ("thog-key-", "thog-secret-"), r"[0-9a-f]{16,32}", "TruffleHog Enterprise key"),
    _tok("fleetbase-key", "flb_live_", r"[0-9a-zA-Z]{20}", "Fleetbase live key"),
    _tok("pubnub-key", ("pub-c-", "sub-c-"), r"[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}",
         "PubNub publish/subscribe key"),
    _tok("salesforce-token", "3MVG9", r"[0-9a-zA-Z._+/=]{80,251}", "Salesforce connected-app consumer key", end=_END_B64),
    _tok("salesforce-token", "5AEP861", r"[a-zA-Z0-9._=]{80,400}", "Salesforce refresh token", end=_END_B64),
    _tok("atlassian-api-token", "ATCTT3xFfG", r"[A-Za-z0-9+/=_\-]{20,400}=[A-Za-z0-9]{8}", "Atlassian Cloud admin token"),
    _tok("nightfall-key", "NF-", r"[a-zA-Z0-9]{32}", "Nightfall API key", check="random"),
    _tok("voiceflow-key", "VF.", r"(?:(?:DM|WS)\.)?[a-fA-F0-9]{24}\.[a-zA-Z0-9]{16}", "Voiceflow API key"),
    _tok("pagarme-key", "ak_live_", r"[a-zA-Z0-9]{30}", "Pagar.me API key"),
    _tok("ubidots-token", "BBFF-", r"[0-9a-zA-Z]{30}", "Ubidots token"),
    _tok("paystack-key", ("sk_live_", "sk_test_"), r"[a-z0-9]{40}", "Paystack secret key"),
    _tok("zoho-token", "1000.", r"[a-f0-9]{32}\.[a-f0-9]{32}", "Zoho OAuth token"),
    _tok("doppler-token", ("dp.ct.", "dp.st.", "dp.sa.", "dp.scim.", "dp.audit."), r"(?:[a-z0-9\-_]{2,35}\.)?[a-zA-Z0-9]{40,44}",
         "Doppler tokens"),
    _tok("launchdarkly-key", ("sdk-", "api-"), r"[a-z0-9]{8}-[a-z0-9]{4}-4[a-z0-9]{3}-[a-z0-9]{4}-[a-z0-9]{12}",
         "LaunchDarkly SDK and API keys"),
    _tok("dfuse-key", "web_", r"[0-9a-z]{32}", "dfuse API key", check="random"),
    _tok("klaviyo-key", "pk_", r"(?:[0-9a-f]{34}|[A-Za-z0-9]{6}_[0-9a-f]{34})", "Klaviyo private API key", check="random"),
    _tok("gemini-key", ("master-", "account-"), r"[0-9A-Za-z]{20}", "Gemini exchange API key", check="random"),
    _tok("intra42-secret", "u-s4t2ud-", r"[a-f0-9]{64}", "42 intra client id"),
    _tok("closecrm-key", "api_", r"[a-z0-9A-Z]{20,24}\.[a-z0-9A-Z]{20,24}", "Close CRM API key", check="random"),
    _tok("bitbucket-token", ("bb_pr_", "bb_ma_"), r"[a-f0-9]{30}", "Bitbucket tokens"),
    _tok("shippo-token", "shippo_", r"(?:live|test)_[a-fA-F0-9]{40}", "Shippo API token"),
    _tok("hubspot-token", ("pat-na1-", "pat-eu1-"), r"[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12}",
         "HubSpot private app token"),
    _tok("duffel-token", "duffel_", r"(?:test|live)_[a-zA-Z0-9_\-=]{43}", "Duffel API token"),
)

# Searched in the whole text: formats containing characters outside a token, or anchored on a
# literal that is not at a token start.
TEXT_FORMATS: tuple[TextFormat, ...] = (
    # https://core.telegram.org/bots/api#authorizing-your-bot : <bot id>:<35 chars starting A>
    TextFormat("telegram-bot-token", lazy(r":A[\w-]{34}(?![\w-])"), "Telegram bot token",
               back=lazy(r"(?<![\w:])\d{5,16}$")),
    # https://developers.facebook.com/docs/facebook-login/guides/access-tokens#apptokens
    TextFormat("facebook-access-token", lazy(r"\|[\w-]{27,40}(?![\w-])"), "Facebook app access token",
               back=lazy(r"(?<!\d)\d{15,16}$")),
    TextFormat("facebook-access-token", lazy(r"%7[Cc][\w-]{27,40}(?![\w-])"), "Facebook app access token",
               back=lazy(r"(?<!\d)\d{15,16}$")),
    # https://api.slack.com/messaging/webhooks
    TextFormat("slack-webhook", lazy(r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,160}"),
               "Slack incoming webhook URL"),
    TextFormat("teams-webhook", lazy(r"\.webhook\.office\.com/webhookb2/[\w\-]{10,}@[\w\-]{10,}/IncomingWebhook/[\w]{20,}/[\w\-]{10,}"),
               "Microsoft Teams incoming webhook"),
    TextFormat("discord-webhook", lazy(r"discord(?:app)?\.com/api/webhooks/\d{5,30}/[\w\-]{40,100}"),
               "Discord webhook URL"),
    # Sidekiq Enterprise gem credentials: https://github.com/sidekiq/sidekiq/wiki/Sidekiq-Pro
    TextFormat("sidekiq-secret", lazy(r"BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM[\"']?\s*(?::|=)\s*[\"']?([a-f0-9]{8}:[a-f0-9]{8})"),
               "gitleaks sidekiq-secret", group=1),
    # Azure storage: https://learn.microsoft.com/azure/storage/common/storage-configure-connection-string
    TextFormat("azure-storage-key", lazy(r"AccountKey=([A-Za-z0-9+/]{86,88}={0,2})"), "Azure storage connection string",
               group=1),
    # Azure AD client secrets: 3 chars, a digit, "Q~", 31-34 chars (gitleaks azure-ad-client-secret).
    # HashiCorp Terraform Cloud tokens: <14 chars>.atlasv1.<60-70 chars> (gitleaks hashicorp-tf-api-token).
    # SoftLayer API URLs carry the key in the path (detect-secrets SoftlayerDetector).
    TextFormat("softlayer-credentials", lazy(r"api\.softlayer\.com/soap/v3(?:\.1)?/([a-z0-9]{64})(?![a-z0-9])"),
               "SoftLayer SOAP API URL", group=1),
    # Mailchimp API keys: 32 hex digits and the data-center suffix (detect-secrets MailchimpDetector).
    TextFormat("mailchimp-api-key", lazy(r"-us\d{1,2}(?![\w-])"), "Mailchimp API key",
               back=lazy(r"(?<![\w-])[0-9a-f]{32}$")),
    TextFormat("terraform-token", lazy(r"\.atlasv1\.[a-zA-Z0-9\-_=]{60,70}(?![\w=\-])"),
               "gitleaks hashicorp-tf-api-token", back=lazy(r"(?<![A-Za-z0-9])[a-zA-Z0-9]{14}$")),
    # MaxMind license keys end in "_mmk" (gitleaks maxmind-license-key).
    TextFormat("maxmind-license-key", lazy(r"_mmk(?![\w-])"), "gitleaks maxmind-license-key",
               back=lazy(r"(?<![A-Za-z0-9_])[A-Za-z0-9]{6}_[A-Za-z0-9]{29}$")),
    TextFormat("azure-ad-client-secret", lazy(r"Q~[a-zA-Z0-9_~.\-]{31,34}(?![a-zA-Z0-9_~.\-])"),
               "gitleaks azure-ad-client-secret", back=lazy(r"(?<![a-zA-Z0-9_~.\-])[a-zA-Z0-9_~.\-]{3}\d$")),
    # Azure DevOps PATs since 2024: 84 characters in Microsoft's annotated key format, "JQQJ9"
    # after the first 52 and the service signature "AZDO" at 76-79.
    TextFormat("azure-devops-pat", lazy(r"JQQJ9[A-Za-z0-9]{19}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])"),
               "Azure DevOps PAT (84 characters, AZDO signature)", back=lazy(r"(?<![A-Za-z0-9])[A-Za-z0-9]{52}$")),
    # Fly.io tokens as the Authorization header writes them: "FlyV1 fm<n>_…" (TruffleHog flyio).
    TextFormat("flyio-token", lazy(r"FlyV1 (fm\d{1,2}_[A-Za-z0-9+/=,_\-]{100,4000})(?![A-Za-z0-9+/=,_\-])"),
               "TruffleHog flyio", group=1),
)


@dataclass(frozen=True)
class NamedToken:
    """A token without a mark of its own, known by its shape under a key naming its service:
    ``AZURE_DEVOPS_PAT=<52 base32 characters>``. Applied to the candidate runs (and to what
    follows their last ``=``), with the key read back from the value."""

    kind: str
    value: re.Pattern[str]  # the whole value (fullmatch)
    lengths: tuple[int, int]  # the value's shortest and longest length, checked before the pattern
    names: frozenset[str]  # a part of the key (split at ``_ - .`` and case changes, lower case)
    source: str


NAMED_TOKENS: tuple[NamedToken, ...] = (
    # Azure DevOps PATs before 2024: 52 characters of lower-case base32 (TruffleHog
    # azuredevopspersonalaccesstoken reads ``[0-9a-z]{52}`` near "azure"); the 84-character
    # ones are ``TEXT_FORMATS``' and also count under such a key.
    NamedToken("azure-devops-pat", lazy(r"[a-z2-7]{52}|[A-Za-z0-9]{52}JQQJ9[A-Za-z0-9]{19}AZDO[A-Za-z0-9]{4}"), (52, 84),
               frozenset({"ado", "azdo", "vsts", "devops", "azuredevops", "tfs"}),
               "Azure DevOps personal access tokens"),
    # TOTP/HOTP shared secrets: base32 (RFC 4648, RFC 6238 as authenticator apps take them).
    NamedToken("otp-secret", lazy(r"[A-Z2-7]{16,128}={0,6}"), (16, 134),
               frozenset({"otp", "totp", "hotp", "mfa", "2fa", "twofa", "authenticator", "seed"}),
               "RFC 6238 TOTP secret, base32"),
)

# Private-key armour (RFC 7468, OpenSSH PROTOCOL.key, RFC 4880 for PGP).
PRIVATE_KEY_BEGIN = lazy(r"-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY( BLOCK)?-----")
PRIVATE_KEY_END = lazy(r"-----END (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----")

# scheme://user:{password}@host (RFC 3986 userinfo): matched right after "://"; the password may
# hold "@" (greedy up to the last "@" before the host) and "#" (people write it unencoded),
# never "/" or whitespace.
URL_USERINFO = lazy(r"([^\s:/?#@\"'`<>\[\]]{0,256}):([^\s/?\"'`<>]{1,256})@(?=[A-Za-z0-9\[._\-])")

# curl -u user:password / --user user:password (gitleaks curl-auth-user); quoted or bare.
CURL_USER = lazy(
    r"-(?:u|-user)[ \t=]{1,4}(?:\"([^\"\n]{0,200})\"(?::\"([^\"\n]{0,200})\")?"
    r"|([^\s\"':|;&]{0,200}):(?:'([^'\n]{1,200})'|\"([^\"\n]{1,200})\")"
    r"|'([^'\n]{0,200})'|([^\s\"'|;&]{1,200}))")

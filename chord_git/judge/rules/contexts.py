"""What cancels a rule in its clause, per language: negators (a prohibition is an instruction,
not a grant), and the moods in which a sentence asserts nothing of its own: a question, a
hypothetical, someone else's view (data for ``frames`` and ``mood``)."""
from __future__ import annotations

NEGATORS: dict[str, tuple[str, ...]] = {
    "en": ("never", "not", "no", "nor", "don'?t", "do\\s+not", "doesn'?t", "does\\s+not", "didn'?t", "mustn'?t",
           "must\\s+not", "shouldn'?t", "should\\s+not", "cannot", "can'?t", "won'?t", "will\\s+not", "isn'?t",
           "aren'?t", "avoid\\w*", "forbid\\w*", "prohibit\\w*", "ban(?:s|ned)?", "disallow\\w*", "refuse", "under\\s+no\\s+circumstances",
           "stop", "no\\s+longer", "out\\s+of", "away\\s+from", "exclud\\w+", "refrain\\w*", "nobody", "without",
           "instead\\s+of", "rather\\s+than", "(?:stay|stays|remain|remains|keep|kept)\\s+(?:off|disabled)", "off-limits",
           "reject\\w*", "refus\\w+", "veto\\w*", "declin\\w+",
           "no\\s+one", "none", "nothing", "neither", "nowhere"),
    "zh": ("不要", "不准", "不许", "不能", "不可", "不得", "禁止", "别(?!人|的|处|名|称|致)", "切勿", "千万别", "不允许", "严禁", "避免", "绝不",
           "不应", "不该", "勿", "从不", "不用", "没有", "不是", "不会", "杜绝", "不行",
           # 不 before a verb; not the words it starts ("不足" short, "不同" different, "不断" constant)
           "不(?=[\\u4e00-\\u9fff])(?!足|同|断|少|稳|错|久|仅|光|但|论|管|过|然|如|只|好意|安|妨)",
           "没(?=[\\u4e00-\\u9fff])(?!错)", "谁都不", "无人", "否决", "拒绝", "反对", "而不是"),
    "es": ("no", "nunca", "jam[aá]s", "ni", "prohibid[oa]s?", "prohibici[oó]n", "evita\\w*", "tampoco", "nada\\s+de",
           "en\\s+ning[uú]n\\s+caso", "nadie", "ning[uú]n[oa]?", "sin", "en\\s+lugar\\s+de", "rechaz\\w+", "fuera\\s+del?"),
    "de": ("nicht", "nie", "niemals", "kein\\w{0,2}", "verboten", "verbot", "untersagt", "vermeide\\w*", "auf\\s+keinen\\s+fall",
           "niemand", "nichts", "ohne", "statt", "anstatt", "abgelehnt", "lehn\\w+\\s+ab", "weder"),
    "fr": ("ne", "n'", "pas", "jamais", "ni", "hors\\s+d[eu']", "en\\s+dehors\\s+d[eu']", "interdit\\w*", "interdiction", "[ée]vite\\w*", "aucun\\w*", "sous\\s+aucun\\s+pr[ée]texte",
           "personne", "rien", "sans", "au\\s+lieu\\s+de", "refus\\w+", "rejet\\w+"),
    "ja": ("ない", "ません", "ずに", "禁止", "だめ", "ダメ", "駄目", "いけない", "やめて", "やめる", "避け", "するな",
           "しないで", "不可", "誰も", "せず", "[ぁ-ゖ]ず(?=に|、|。|\\s|$)", "却下", "拒否"),
}

# Negators that say how an act is done when they follow it ("--yolo without approval prompts",
# "terraform destroy instead of a plan"): they forbid only what comes after them.
MANNER: frozenset[str] = frozenset({
    "without", "instead\\s+of", "rather\\s+than", "sin", "en\\s+lugar\\s+de", "ohne", "statt", "anstatt", "sans",
    "au\\s+lieu\\s+de", "而不是"})  # (Japanese puts every negation after its verb: none is of manner there)


def trailing_negators() -> dict[str, tuple[str, ...]]:
    """The negators that forbid the act when they come after it: all but those of manner."""
    return {lang: tuple(w for w in table if w not in MANNER) for lang, table in NEGATORS.items()}


# A gate kept on the act: it is done only after the user says so ("ask before deleting a remote
# branch", "requires the user's approval", "先问我"). Like a negation, it cancels a grant, a
# destructive command or a safety-off rule in its clause; polarity does not read it.
GATES: dict[str, tuple[str, ...]] = {
    "en": ("ask(?:s|ed|ing)?\\s+(?:the\\s+user\\s+|me\\s+|us\\s+|a\\s+human\\s+)?(?:first|before|beforehand)",
           "ask(?:s|ed|ing)?\\s+(?:the\\s+user|me|us|a\\s+human|for\\s+(?:approval|permission|confirmation|consent))",
           "(?:check|confirm|consult)(?:s|ed|ing)?\\s+with\\s+(?:the\\s+user|me|us|a\\s+human|the\\s+team)",
           "(?:requires?|needs?|needed|required)\\s+(?:(?:the\\s+user's|my|our|an?|explicit|prior|written|human)\\s+){0,2}"
           "(?:approval|consent|confirmation|sign-?off|permission|go-?ahead)",
           "(?:only\\s+)?(?:after|with|once\\s+(?:given|granted))\\s+(?:(?:the\\s+user's|my|our|explicit|prior|written)\\s+){0,2}"
           "(?:approval|consent|confirmation|sign-?off|permission|go-?ahead)",
           "(?:once|after|when|until)\\s+(?:the\\s+user|i|we)\\s+(?:approves?|confirms?|says?\\s+so|okays?|signs?\\s+off)",
           # a look first: "show the script to the user before running it"
           "(?:show|present)(?:s|ed|ing)?\\s+(?:\\S+\\s+){0,4}?(?:to\\s+)?(?:me|us|the\\s+user)(?![A-Za-z])",
           "(?:read|inspect|audit|verify)\\s+(?:it|them|the\\s+\\w+|\\w+)\\s+(?:first|before\\s+(?:running|executing|using))",
           "ask(?:s)?(?=\\s*(?:[.!;]|$))", "(?:checked|reviewed|read|inspected|verified)\\s+(?:\\S+\\s+){0,2}?before",
           # a copy kept first: "before resetting, stash or make a backup branch"
           "(?:stash|back\\s*up|backup|snapshot|dump)\\w*\\s+(?:\\S+\\s+){0,4}?(?:first|before)",
           "before\\s+\\w+ing\\b[^.;\\n]{0,60}?(?:stash|back\\s*up|backup|snapshot)",
           # a check first, the act after: "before a force push, check the branch", "after the user's review"
           "before\\s+(?:\\S+\\s+){0,6}?(?:check|verify|confirm|make\\s+sure|ensure)\\b",
           "after\\s+(?:the\\s+user's\\s+|my\\s+|a\\s+|their\\s+)?(?:review|reading|check)\\b",
           "goes\\s+through\\s+(?:a\\s+)?(?:reviewed|approved)",
           "first\\s+(?:\\S+\\s+){0,2}?(?:stash|back\\s*up|backup|snapshot)", "for\\s+(?:review|inspection)"),
    "zh": ("先问", "先询问", "问过(?:我|用户)", "征得(?:我|用户)?(?:的)?同意", "经(?:过)?(?:我|用户)?(?:的)?(?:同意|批准|确认)",
           "(?:需要|须|需|要)(?:我|用户)?(?:的)?(?:确认|批准|同意|审批)", "先确认", "确认后", "批准后", "同意后",
           "先(?:给我|让我|给用户)?(?:看|审|检查|读)", "(?:看过|审过|检查过|审查过)(?:再|后|之后)",
           "等(?:我|用户)(?:的)?(?:确认|批准|同意|点头|审核)", "先(?:\\s?stash|备份|建备份|做备份)", "备份(?:后|之后|以后)"),
    "es": ("(?:consultar|preguntar)\\s+(?:antes|primero|al\\s+usuario)", "pregunt(?:a|e|ar)\\s+(?:primero|antes)",
           "consult(?:a|e|ando)\\s+(?:antes|primero|al\\s+usuario)", "con\\s+(?:la\\s+)?(?:aprobaci[oó]n|autorizaci[oó]n|confirmaci[oó]n)",
           "requiere\\s+(?:la\\s+|una\\s+)?(?:aprobaci[oó]n|confirmaci[oó]n|autorizaci[oó]n|consultar)",
           "(?:tras|despu[ée]s\\s+de)\\s+(?:la\\s+)?(?:aprobaci[oó]n|confirmaci[oó]n)", "preg[uú]nta(?:me|nos|le)",
           "pregunta(?=\\s*(?:[.!;]|$))", "(?:doy|da|dar[ée]|dé)\\s+(?:el\\s+)?visto\\s+bueno", "con\\s+(?:mi\\s+|el\\s+)?visto\\s+bueno", "(?:mu[ée]stra(?:me|le|lo|los)?|mostrar|ense[ñn]a(?:me|le|lo|los)?|ense[ñn]ar|revisa(?:r|lo|los)?|verifica(?:r|lo)?|comprueba(?:r|lo)?)"
           "\\s+(?:\\S+\\s+){0,5}?(?:antes|primero)"),
    "de": ("vorher\\s+(?:zu\\s+)?fragen", "frag\\w*\\s+(?:vorher|zuerst|erst|mich|uns|den\\s+nutzer)", "nach\\s+r[üu]ckfrage",
           "mit\\s+(?:meiner\\s+|der\\s+)?(?:freigabe|zustimmung|genehmigung)",
           "(?:erfordert|braucht|ben[öo]tigt)\\s+(?:eine\\s+|meine\\s+|die\\s+)?(?:freigabe|zustimmung|genehmigung|best[äa]tigung)",
           "nach\\s+(?:freigabe|zustimmung|best[äa]tigung)", "frag(?:e|en)?(?=\\s*(?:[.!;]|$))",
           "(?:zeig(?:e|en|t)?|pr[üu]f(?:e|en|t)?|lies|lesen)\\s+(?:\\S+\\s+){0,5}?(?:vorher|zuerst)",
           "(?:gepr[üu]ft|gelesen|angesehen|kontrolliert)\\W+(?:\\S+\\s+){0,2}?bevor", "erst\\s+(?:\\S+\\s+){0,3}?(?:pr[üu]fen|lesen|ansehen)",
           # a copy kept first: "zuerst werden alle Änderungen mit git stash gesichert"
           "(?:zuerst|erst|vorher)\\s+(?:\\S+\\s+){0,6}?(?:gesichert|sichern|stash\\w*|backup)"),
    "fr": ("demand\\w*\\s+(?:avant|d'abord|au\\s+pr[ée]alable|l'autorisation|la\\s+permission|l'accord|[àa]\\s+l'utilisat\\w+)",
           "avec\\s+(?:l'accord|la\\s+validation|l'approbation|l'autorisation)", "apr[èe]s\\s+(?:validation|accord|confirmation|approbation)",
           "(?:n[ée]cessite|requiert|exige)\\s+(?:une\\s+|l'|la\\s+)?(?:validation|accord|approbation|confirmation)",
           "demande(?=\\s*(?:[.!;]|$))", "(?:montre[rz]?|v[ée]rifie[rz]?|relis|relire|examine[rz]?)\\s+(?:\\S+\\s+){0,5}?(?:avant|d'abord)",
           "avant\\s+(?:\\S+\\s+){0,6}?(?:v[ée]rifier|s'assurer|confirmer|demander)", "apr[èe]s\\s+(?:sa\\s+|la\\s+|une\\s+)?(?:relecture|revue|v[ée]rification)",
           "montr[ée]\\w*\\s+[àa]\\s+l'utilisat", "d'abord\\s+(?:\\S+\\s+){0,4}?(?:sauvegard\\w+|stash\\w*|backup)", "passe\\s+par\\s+(?:une?\\s+)?(?:\\S+\\s+){0,2}?(?:relue?|valid[ée]e?|revue|approuv[ée]e?)"),
    "ja": ("前に(?:は)?(?:必ず)?(?:\\S{0,8}?)(?:確認|相談|聞|尋ね)", "確認してから", "事前に(?:\\S{0,6}?)(?:確認|相談|承認|聞)", "許可を(?:得て|取って|もらって|得る)", "承認(?:を得て|後|が必要)", "(?:見せて|確認して|読んで|レビューして)から",
           "聞いてから", "相談してから", "確認が必要"),
}

# A safeguard waived: a negation of a precaution (asking, confirming, reading, reviewing, backing up,
# exporting, downloading first) drops it from the act; it never forbids the act ("run it, no need
# to ask me", "直接 TRUNCATE，不用导出", "exécute-le sans le lire d'abord", "確認はいりません").
WAIVED: dict[str, tuple[str, ...]] = {
    "en": ("without\\s+(?:first\\s+|ever\\s+)?(?:asking|checking|confirming|consulting|reading|reviewing|looking(?:\\s+at)?|inspecting"
           "|verifying|examining|auditing|backing\\s+up|(?:a|any)\\s+backup|exporting|downloading|telling|notifying|waiting|approval"
           "|confirmation|permission|sign-?off)(?:\\s+(?:it|them|that|this|me|us|anyone|anybody|first|with\\s+\\w+|the\\s+\\w+|what\\s+it\\s+does))*",
           "no\\s+need\\s+(?:to|for)\\s+(?:\\w+\\s+)?(?:ask|confirm|check|review|read|look|back\\s*up|backups?|export|wait|approv|confirmation|ping)\\w*",
           "(?:don'?t|do\\s+not|doesn'?t|does\\s+not|never)\\s+(?:need\\s+to|have\\s+to|bother(?:\\s+to)?)\\s+"
           "(?:ask|confirm|check|review|read|look|back\\s*up|export|wait|ping)\\w*",
           "no\\s+(?:backups?|confirmation|approval|review|export)\\s+(?:is\\s+|are\\s+)?(?:needed|required|necessary)",
           "(?:confirmation|approval|a\\s+backup|(?:a\\s+)?review)\\s+(?:is\\s+)?not\\s+(?:needed|required|necessary)"),
    "zh": ("(?:不用|不需要|无需|无须|不必|没必要|不做|用不着|省去|省掉)\\s?(?:先|再|去|来|每次)*\\s?"
           "(?:问我?|询问|确认|征求[^，。；\\s]{0,6}同意|同意|批准|审批|备份|导出|下载|审查|审核|检查|看|读|等我?|通知)",),
    "es": ("sin\\s+(?:preguntar(?:me|nos|le)?|consultar(?:me|nos|le)?|confirmar|revisar(?:lo|la|los|las)?|leer(?:lo|la)?|mirar"
           "|hacer\\s+(?:una\\s+)?copia|backup|exportar|descargar(?:lo|la)?|avisar(?:me|nos)?)",
           "no\\s+(?:hace\\s+falta|es\\s+necesario|necesitas|tienes\\s+que)\\s+(?:que\\s+)?(?:me\\s+|nos\\s+)?"
           "(?:pregunt|consult|confirm|revis|le[eé]|export|hacer\\s+(?:una\\s+)?copia|backup|avis)\\w*"),
    "de": ("ohne\\s+(?:\\S+\\s+){0,3}?(?:zu\\s+)?(?:fragen|r[üu]ckfrage|nachfrage|best[äa]tigung|pr[üu]fen|zu\\s+pr[üu]fen|lesen|durchzulesen"
           "|anzusehen|ansehen|backup|sicherung|exportieren|herunterzuladen)",
           "(?:brauchst|musst|braucht|m[üu]sst)\\s+(?:\\S+\\s+){0,2}?(?:nicht|nie|kein\\w*)\\s+(?:vorher\\s+)?(?:zu\\s+)?"
           "(?:fragen|warten|pr[üu]fen|sichern|exportieren|lesen)",
           "kein\\w*\\s+(?:backup|sicherung|r[üu]ckfrage|best[äa]tigung|export)\\s+(?:n[öo]tig|notwendig|erforderlich)"),
    "fr": ("sans\\s+(?:me\\s+|nous\\s+|le\\s+|la\\s+|les\\s+|l'|en\\s+)?(?:demander|consulter|confirmer|lire|relire|regarder|v[ée]rifier"
           "|examiner|inspecter|sauvegarder|exporter|t[ée]l[ée]charger|pr[ée]venir|avertir)",
           "ni\\s+(?:le\\s+|la\\s+|les\\s+|l')?(?:lire|relire|regarder|v[ée]rifier|examiner)",
           "pas\\s+besoin\\s+(?:de\\s+|d')(?:me\\s+|nous\\s+)?(?:demander|confirmer|v[ée]rifier|sauvegard\\w+|lire|relire|pr[ée]venir|exporter)"),
    "ja": ("(?:確認|相談|承認|許可|レビュー|バックアップ|エクスポート)(?:を取ら|を得|を待た|せ|し)?(?:ずに|ず|なしで|なく|不要)",
           "(?:確認|承認|許可|バックアップ)(?:は|も)?(?:いりません|いらない|要りません|要らない|不要です)",
           "(?:聞か|尋ね|読ま|見|調べ|ダウンロードせ|バックアップせ|確認せ|確認し)(?:ずに|ず|ないで)",
           "(?:いちいち)?(?:確認|相談)しなくて(?:も)?(?:いい|よい|大丈夫|構わない)"),
}

# A condition before the act names its occasion: a negation inside it ("if the linter is not
# installed, run it via …", "rclone が入っていない場合は", "si falta pyenv,") says when, not whether.
CONDITION = (
    r"(?:^|(?<=[\s,;:(]))(?:if|when|whenever|once|in\s+case|si|cuando|wenn|falls|sobald|quand|lorsqu['’]?|s['’]il)\b"
    r"[^,;.\n]{0,120}?,"
    r"|(?:^|(?<=[，、。；\s]))[^，、。；\n]{0,60}?(?:場合(?:は|に|には)|とき(?:は|に)|時(?:は|に)|なら(?:ば)?|なければ|たら)、?"
    r"|(?:^|(?<=[，、。；\s]))(?:如果|要是|假如|若|当)[^，。；\n]{0,60}?，"
    r"|(?:^|(?<=[，、。；\s]))[^，。；\n]{0,40}?(?:时|的时候|的话)，"
)

# A sentence that asks: its end, or how questions open where the mark is often left out.
QUESTION = (
    r"[?？]\s*[\"'”」)]?\s*$|^\s*¿"
    r"|[吗嘛么][。.]?\s*$"
    r"|(?:ですか|ますか|でしょうか|かな|んですか|のか)[。.]?\s*$"
    r"|^\s*(?:can|could|may|should|shall)\s+(?:i|we)\b"
    r"|^\s*(?:darf|kann|soll|muss)\s+ich\b|^\s*(?:d[üu]rfen|k[öo]nnen|sollen|m[üu]ssen)\s+wir\b"
    r"|^\s*(?:est-ce\s+que|puis-je|peut-on|pouvons-nous|dois-je|doit-on)\b"
    r"|^\s*(?:puedo|podemos|debo|debemos|se\s+puede)\b"
    # A question reported: "the user asked whether …", "问能不能", "fragte, ob", "かどうか"
    r"|\b(?:asked|asks|asking|wondered|wonders|wants?\s+to\s+know|wanted\s+to\s+know)[\s,]+(?:\w+[\s,]+){0,3}?(?:whether|if|why|how|what|which|about)\b"
    r"|(?:询)?问(?!题)[^。；！？\n]{0,20}?(?:能不能|是否|可不可以|可以不可以|要不要|能否|可否|为什么|怎么|吗|什么|会不会|有没有|哪(?!怕))|想知道|询问"
    r"|\bwant(?:s|ed)?\s+to\s+understand\b|\bvoulait\s+(?:savoir|comprendre)\b|\bquer[ií]a\s+(?:saber|entender)\b"
    r"|\bquiso\s+entender\b|\bwollte\s+verstehen\b"
    r"|\bpregunt(?:ó|o|a)\s+(?:si|por|qu[ée]|c[oó]mo|cu[aá]ndo|d[oó]nde|para\s+qu[ée])\b|\b(?:quiere|quiso|quer[ií]a)\s+saber\b|\bse\s+pregunta\s+si\b"
    r"|\b(?:ge)?fragt(?:e|en)?,?\s+(?:\w+\s+){0,4}?ob\b|\b(?:will|wollte)\s+wissen\b|\bfrage,?\s+ob\b"
    # the question as a noun, or its asker between: "Frage des Nutzers: …", "la pregunta del usuario
    # sobre si …", "Question posée sur …", "すべきかをユーザーが質問した", "可否をユーザーが質問"
    # (a noun and a colon ask only with a question after them: "Question: merge without review." asks nothing)
    r"|^\s*(?:frage|question|pregunta)\b[^.:\n]{0,30}:(?=[^\n]*?(?:[?？]|\b(?:whether|if|or|ob|oder|si|o|ou)\b))|\bfrage\b[^.?!\n]{0,60}?\bob\b|\bpregunta\b[^.?!\n]{0,60}?\bsi\b"
    r"|\bquestion\s+(?:pos[ée]e|de\s+l'utilisat\w+|(?:about|on|of)\s+whether)\b|\b(?:asked|asks)\b[^.?!\n]{0,80}?\bwhether\b"
    r"|(?<=[るたいうくすつぬむずきしでれ])か(?:を|について|どうか)?[^。\n]{0,15}?(?:質問|尋ね|聞い|聞か)"
    r"|(?:可否|是非|要否)(?:を|について)?[^。\n]{0,15}?(?:質問|尋ね|聞い)|(?:提出|提了|问了)(?:一个|个)?问题(?=[^\n]*?(?:还是|吗|是否|能否|[?？]))"
    r"|\b(?:a\s+demand[ée]|veut\s+savoir|voulait\s+savoir|se\s+demande|demande)\s+(?:si\b|s'il|pourquoi|comment|ce\s+que|quel\w*|la\s+diff[ée]rence)"
    # ("かどうか" alone is "whether": "設定されているかどうかをログに出して" logs, it does not ask)
    r"|かどうか(?:を|について)?[^。\n]{0,15}?(?:聞|尋ね|質問|知りたい|教えて)|か(?:と)?(?:聞い|尋ね|質問)|(?:る|た|い)か(?:を)?確認し(?:た|ました)"
    r"|(?:可否|是非|危険性|安全性|要否)(?:を|について)?(?:質問|確認|相談|尋ね)|(?:を|について)(?:質問|尋ね)(?:し|た|ま)"
)
# What happened once, told as the reason for a rule: it orders nothing ("the cleanup script used
# to run git clean -fdx", "曾有脚本差点删掉整个仓库"). Refusals only: a lesson's quote keeps it.
PAST = (
    r"\b(?:used\s+to|an?\s+incident|the\s+incident|back\s+when|last\s+(?:year|month|quarter))\b|曾经|曾有|以前有|上次有"
    r"|\b(?:autrefois|auparavant|un\s+incident)\b|\b(?:fr[üu]her|vorfall|anlass\s+war)\b|\b(?:un\s+incidente|antes\s+se)\b"
    r"|かつて|以前は|事故|インシデント|\bschon\s+(?:ein)?mal\b|\blleg[oó]\s+a\b"
)
HYPOTHETICAL = (
    r"\b(?:what\s+if|suppose|supposing|imagine|hypothetically|in\s+theory|whether)\b|是否|要不要|还是不"
    r"|\bif\b[^.;!?\n]{0,120}\b(?:would|could|might|were|'d)\b|\bwould\s+it\s+be\b|\bmaybe\s+we\s+could\b"
    r"|假设|假如|倘若|如果[^。；！？\n]{0,60}(?:会|的话|就好了|怎么样|怎样|是不是)|要是[^。；！？\n]{0,60}(?:会|的话|就好了)"
    r"|\b(?:qu[ée]\s+pasar[ií]a\s+si|supongamos|imagina|hipot[ée]ticamente)\b"
    r"|\bsi\b[^.;!?\n]{0,120}\b(?:podr[ií]amos|pudi[ée]ramos|ser[ií]a|fuera|hubiera)\b"
    r"|\b(?:was\s+w[äa]re\s+wenn|angenommen|stell\s+dir\s+vor|hypothetisch)\b"
    r"|\b(?:wenn|falls)\b[^.;!?\n]{0,120}\b(?:w[üu]rde|w[üu]rden|w[äa]re|w[äa]ren|k[öo]nnten|h[äa]tte)\b"
    r"|\b(?:et\s+si|supposons|imaginons|hypoth[ée]tiquement)\b"
    r"|\bsi\b[^.;!?\n]{0,120}\b(?:pourrait|pourrions|serait|[ée]tait|aurait)\b"
    r"|もし|仮に|としたら|たとしたら"
)
REPORTED = (
    r"\b(?!(?:i|we|you|me|te|tu|que|qui|on|nous|vous|ne|se|lo|la|le|les|il|it|they|es|er|sie|du|is|are|was|were|be"
    r"|been|being|has|have|had|pull|merge)\b)[a-z]+\s+(?:says|said|thinks|thought|claims|claimed|suggests|suggested"
    r"|reckons|believes|told\s+(?:me|us)|mentioned|wrote|insists|insisted|considers|considered|argued|argues)\b"
    r"(?!\s+(?:no|not)\b)"
    r"|\baccording\s+to\b|\b(?:i|we)\s+(?:read|heard|saw)\s+(?:that|somewhere|online)\b|\breportedly\b|\bapparently\b"
    r"|(?:他|她|他们|她们|同事|别人|有人|老板|领导|网上|文档|博客|大家|经理|主管|组长)(?:说|认为|觉得|提到)|据说|听说|据称"
    # ("según" of a source, not "según el sistema", depending on the system)
    r"|\b(?:dice|dijo|dicen|cree|piensa|opina|sugiere|afirma|comenta|insiste\s+en)\s+que\b"
    r"|\bseg[uú]n\s+(?:(?:él|ella|ellos|ellas)\b|(?-i:[A-ZÁÉÍÓÚ])\w+|(?:el|la|mi|su|nuestr[oa])\s+(?:equipo|jef[ea]|compa[ñn]er[oa]|documentaci[oó]n"
    r"|blog|proveedor|manager|responsable|art[ií]culo|gu[ií]a))"
    r"|\b(?:sagt|sagte|sagen|meint|meinte|findet|glaubt|behauptet|schreibt|h[äa]lt|hielt)\b|\blaut\b|\bangeblich\b"
    r"|\b(?:dit|disait|pense|trouve|pr[ée]tend|affirme|sugg[èe]re|[ée]crit|estime)\s+qu|\bselon\b|\bd'apr[èe]s\b"
    r"|によると|によれば|と言って|と言った|って言って|らしい|そうです|だそうだ"
)
# Someone else's proposal: it stands for the user's unless the user turned it down after it ("a
# teammate proposed letting the agent approve its own PRs; the user rejected it"). Without an
# answer, a proposal recorded in memory is taken as the plan, so its grant is still refused.
PROPOSED = (
    r"\b(?!(?:i|we|you|me|te|tu|que|qui|on|nous|vous|ne|se|lo|la|le|les|il|it|they|es|er|sie|du|is|are|was|were|be"
    r"|been|being|has|have|had|pull|merge)\b)[a-z]+\s+(?:proposed|proposes|recommended|recommends|pushed\s+for"
    r"|asked(?:\s+(?:the\s+agent|us|me))?\s+(?:to|for)|wanted|wants|advised|advises|urged|urges)\b"
    r"|(?:他|她|他们|她们|同事|别人|有人|老板|领导|经理|主管|组长|外包|供应商|客户|财务|运维)(?:建议|提议|提出|要求|希望|想)"
    r"|\b(?:propone|pide)\s+que\b|\b(?:propuso|sugiri[oó]|pidi[oó]|recomend[oó]|aconsej[oó])\b|\bse\s+(?:sugiri[oó]|propuso|recomend[oó])\b"
    r"|\b(?:schlug|schl[äa]gt|wollte|empfahl|empfiehlt|bat|forderte|verlangte)\b"
    r"|\b(?:voudrait|veut)\s+qu|\ba\s+(?:propos[ée]|sugg[ée]r[ée]|conseill[ée]|recommand[ée]|demand[ée])\s+(?:de|d')"
    r"|\b(?:sugg[èe]re|propose|recommande|conseille)\s+(?:de|d')"
    r"|(?:が|は|を)(?:提案|提言|勧め|要望|主張)|案を出(?:し|す)"
)
REJECTED = (
    r"\b(?:rejected|refused|declined|said\s+no|vetoed|overruled|disagreed|objected|turned\s+(?:it|that|this)\s+down)\b"
    r"|不同意|拒绝|否决|驳回|没同意|不接受|\brechaz\w+|\bse\s+niega|\bdijo\s+que\s+no|\bdescart\w+"
    r"|\blehnt\w*\s+(?:\w+\s+)?ab\b|\babgelehnt|\bwiderspr\w+|\bverweiger\w+|\brefus\w+|\brejet\w+"
    r"|\bn'est\s+pas\s+d'accord|却下|断った|反対|拒否|\b(?:ist|war|sind|bin)\s+(?:\w+\s+)?dagegen\b|\bsehe\s+ich\s+anders\b"
)
# The next clause puts something in the act's place: "asked to bypass the hooks; instead scope
# them" does not bypass them.
SUBSTITUTE = (
    r"[\s;,:.—–-]*(?:instead|rather|en\s+cambio|en\s+su\s+lugar|stattdessen|statt\s+dessen|[àa]\s+la\s+place|plut[ôo]t"
    r"|而是|改为|改成|代わりに|そのかわり)"
)
# The next clause turns what came before down, pointing back at it: "…, but I don't want that
# here", "aber das machen wir nicht mehr", "mais on ne fait plus ça", "pero le dije que no",
# "けど、今はやりません", "但我们不这么做". A contrast word opens it; the turn-down points back
# (that, das, ça, 这样) or stands alone (no, だめ), so "…, but never on production" is not one.
REJECTED_AFTER = (
    r"[\s,;:、，—–-]*(?:but|however|though|aber|doch|jedoch|mais|pero|sin\s+embargo|けど|けれど|しかし|でも|但是|但|不过|可是)"
    r"[\s,、，]*[^.!?。！？\n]{0,40}?"
    r"(?:\b(?:i|we)\s+(?:don'?t|do\s+not|won'?t|will\s+not|never|no\s+longer)\s+(?:want|do|allow|accept|use|need|like)\s+(?:that|this|it|those)\b"
    r"|\b(?:that|this|it)(?:'s|\s+is)\s+(?:not\s+(?:ok|okay|allowed|happening|how)|off\s+the\s+table)\b"
    r"|\bnot\s+(?:here|anymore|any\s+more|for\s+us)\b|\bno\s+longer\b|\b(?:i|we)\s+(?:said|say|told\s+\w+)\s+no\b"
    r"|\b(?:das|so\s+etwas|sowas|es)\s+(?:machen|tun|wollen|will|mache|m[öo]chte|erlauben)\s+(?:wir|ich)\s+(?:\w+\s+)?nicht\b"
    r"|\bnicht\s+(?:mehr|hier|bei\s+uns)\b|\bne\s+\w+\s+(?:plus|pas)\s+(?:ça|cela|comme\s+ça)"
    r"|\bpas\s+(?:ici|chez\s+nous|question)\b|\bque\s+no\b|\bno\s+lo\s+(?:hacemos|quiero|queremos|aceptamos|permitimos)\b|\bya\s+no\b"
    r"|不这么做|不这样做|不这么干|不同意|不行|不要这样|不允许|不再这样"
    r"|(?:今は|もう|うちでは|ここでは)?(?:やりません|やらない|しません|しない|だめ|ダメ|駄目|不可|認めません|認めない))"
    # and it ends there: "…, but not here in staging" or "…, but I don't want that logged" turn
    # down something else, so a grant followed by them is still a grant
    r"(?:\s+(?:here|anymore|any\s+more|now|either|in\s+this\s+(?:repo|project)))?\s*(?:です|よ)?\s*(?:[.!?。！？\n]|$)"
)
# Someone other than the user, named before the act: only then does a later "the user rejected
# it" turn the act down (a grant followed by "the user rejected the old rule" is still a grant).
THIRD_PARTY = (
    r"\b(?:colleague|teammate|contractor|vendor|consultant|manager|ops|sre|devops|reviewer|someone|somebody"
    r"|another\s+team|the\s+team\s+lead|qa|security)\b|\b\w+'s\s+(?:instructions|docs|documentation|runbook|guide|readme)\b"
    r"|同事|有人|运维|外包|别人|领导|老板|\bcompa[ñn]er[oa]\b|\balguien\b|\bse\s+(?:sugiri[oó]|propuso)\b"
    r"|\bkolleg\w*\b|\bjemand\b|\bcoll[èe]gue\b|\bquelqu'un\b|\bprestataire\b|先輩|同僚|誰か|上司"
    r"|\bfournisseur\b|\bproveedor\b|\b(?:hersteller|anbieter)\w*\b|ベンダー|供应商|厂商"
    # a part of the team, or the team, as the one who proposes: "une partie de l'équipe voudrait …"
    r"|\b(?:part|partie|parte|teil)\s+(?:of|de|del|des)\s+(?:the\s+|la\s+|l'|el\s+|der\s+)?(?:team|[ée]quipe|equipo|teams)\b|团队里有人|チームの一部"
)
# The user as the subject of a turn-down, later in the text: "ops proposed X … the user rejected
# it", "有人建议…，用户不认同", "le prestataire a demandé … ; l'utilisateur a refusé".
USER_REJECTS = (
    r"\b(?:the\s+)?user\s+(?:has\s+|had\s+)?(?:rejected|rejects|refused|refuses|declined|declines|disagreed|disagrees|vetoed|vetoes|overruled|objected|objects"
    r"|does\s+not\s+agree|doesn't\s+agree|did\s+not\s+agree|didn't\s+agree|said\s+no|turned\s+(?:it|that|this)\s+down)\b"
    r"(?!\s+(?:nothing|none|no\s+one))"
    r"|用户(?:拒绝|不同意|不认同|否决|没同意|不接受|反对)"
    r"|\busuari[oa]\s+(?:lo\s+|la\s+|los\s+)?(?:rechaz\w+|no\s+est[aá]\s+de\s+acuerdo|se\s+neg[oó]|no\s+(?:lo\s+|la\s+)?acept\w+)"
    r"|\b(?:be)?nutzer(?:in)?\s+(?:hat\s+)?(?:lehnt\w*\s+(?:\w+\s+)?ab|(?:\w+\s+)?abgelehnt|widerspr\w+|ist\s+nicht\s+einverstanden|ist\s+dagegen)"
    # the user in the first person: "I don't like that at all", "das sehe ich anders", "私は反対"
    r"|\bi\s+(?:don'?t|do\s+not)\s+(?:like|want|accept|agree\s+with)\s+(?:that|this|it)\b|\bi\s+(?:disagree|object)\b|我不同意|我反对"
    r"|\bno\s+estoy\s+de\s+acuerdo\b|\bdas\s+sehe\s+ich\s+anders\b|\bich\s+bin\s+dagegen\b|\bje\s+ne\s+suis\s+pas\s+d'accord\b|私は反対"
    r"|\bi(?:'m|\s+am)\s+against\b|\bje\s+suis\s+contre\b|\bestoy\s+en\s+contra\b"
    r"|\butilisat(?:eur|rice)\s+(?:l'|le\s+|la\s+|les\s+)?(?:a\s+)?(?:refus\w*|rejet\w*|n'est\s+pas\s+d'accord|s'y\s+oppose|s'oppose)"
    r"|ユーザー(?:は|が)(?:それ|これ)?(?:を|に)?(?:拒否|却下|反対|断)"
    # or prefers another way, which puts it aside
    r"|\b(?:the\s+)?user\s+(?:prefers|keeps|retains|sticks\s+with|insists\s+on)\b"
    r"|\b(?:the\s+)?user\s+(?:does\s+not|doesn't|did\s+not|didn't)\s+want\s+(?:that|this|it)\b|\busuari[oa]\s+prefiere\b|\bnutzer(?:in)?\s+bevorzugt\b|\butilisat(?:eur|rice)\s+pr[ée]f[èe]re\b"
    r"|用户(?:更)?(?:倾向于|希望改用|选择了?改用)"
)
# Who speaks for the memory: a reporting verb whose subject is the user (or "I", "we") reports
# the user's own words ("the user said the agent may …") and cancels nothing.
SPEAKER = (
    r"(?<!de\sl')(?<!del\s)(?<!de\s)(?:\b(?:the\s+)?users?|\busuari[oa]s?|\b(?:be)?nutzer(?:in)?|\butilisat(?:eur|rice)s?|用户|ユーザー)"
    r"(?:\s+(?:also|then|later|again|explicitly|clearly))?\s*[,、]?\s*(?:は|が)?\s*$"
)
# A proposal the user took up is the user's: "the agent suggested skipping review; the user agreed".
ACCEPTED = (
    r"\b(?:the\s+)?user\s+(?:agreed|accepted|approved|confirmed|okayed|signed\s+off|said\s+yes|is\s+fine\s+with|went\s+with)"
    r"|用户(?:同意|接受|批准|认可|确认)(?!前)|\busuari[oa]\s+(?:acept[oó]|aprob[oó]|estuvo\s+de\s+acuerdo|dijo\s+que\s+s[ií])"
    r"|\b(?:be)?nutzer(?:in)?\s+(?:stimmt\w*\s+zu|akzeptier\w+|war\s+einverstanden|ist\s+einverstanden)"
    r"|\butilisat(?:eur|rice)\s+(?:a\s+accept[ée]|est\s+d'accord|a\s+approuv[ée]|approuve)|ユーザーは(?:同意|承認|了承)"
)

# Words of bad experience: in polarity they negate what they are about ("we got burned by deep
# class hierarchies" supports "avoid deep class hierarchies").
ADVERSE: dict[str, tuple[str, ...]] = {
    "en": ("burn(?:ed|t)", "bitten", "bit\\s+us", "hurt(?:s|ing)?", "painful", "nightmare", "caused\\s+(?:trouble|problems|issues|outages?)",
           "trouble", "break(?:s|ing)?", "broke", "messes?\\s+up", "falls?\\s+over", "degrades?", "meaningless", "useless",
           "deprecated", "dropped", "retired", "abandoned", "discontinued", "obsolete"),
    "zh": ("踩坑", "踩过坑", "吃过亏", "吃亏", "出过问题", "搞坏", "坑过", "很痛苦", "出问题", "停用", "弃用", "废弃", "淘汰",
           "放弃", "不再"),
    "es": ("nos\\s+quemamos", "problemas", "rompe\\w*", "nos\\s+dio\\s+(?:problemas|guerra)"),
    "de": ("verbrannt", "[äa]rger", "probleme", "kaputt\\w*", "bricht"),
    "fr": ("br[ûu]l[ée]s?", "gal[èe]re", "probl[èe]mes", "cass\\w+"),
    "ja": ("痛い目", "ハマった", "問題が起き", "壊れ", "壊す"),
}
# A clause that restricts or speaks of the rest ("only", "on other days"): its polarity is not
# compared ("deploy only on Tuesdays" and "don't deploy on other days" say one thing).
RESTRICTIVE = (
    r"(?<![A-Za-z])(?:only|just|solely|exclusively|other|others|otherwise|else|solo|s[oó]lo|solamente|[uú]nicamente"
    r"|otr[oa]s?|nur|ausschlie[ßs]lich|andere[nmrs]?|sonst|seulement|uniquement|autres?)(?![A-Za-z])"
    r"|只|仅|唯有|其他|其它|别的|其余|だけ|のみ|しか|他の|それ以外"
)

# Switching something off negates it: "don't turn off branch protection" keeps it on (two
# negations), "turn off branch protection" does not.
OFF: dict[str, tuple[str, ...]] = {
    "en": ("disabl\\w+", "turn(?:ing|s|ed)?\\s+off", "switch(?:ing|es|ed)?\\s+off", "skip(?:s|ped|ping)?", "bypass\\w*",
           "ignor\\w+", "deactivat\\w+"),
    "zh": ("关掉", "关闭", "禁用", "停用", "跳过", "绕过", "忽略", "关了"),
    "es": ("desactiv\\w+", "deshabilit\\w+", "apag\\w+", "s[aá]lta(?:te|r)?", "omit\\w+", "ignor\\w+",
           "quit(?:a|ar|as|es|e|en|ado|ada)"),
    "de": ("deaktivier\\w*", "abschalt\\w*", "ausschalt\\w*", "[üu]berspring\\w*", "umgeh\\w*", "ignorier\\w*",
           "entfern\\w*"),
    "fr": ("d[ée]sactiv\\w+", "contourn\\w+", "ignor\\w+", "saut\\w+"),
    "ja": ("無効(?:に|化)", "オフに", "切って", "外して", "スキップ", "無視"),
}
# A clause that goes on with the one before it ("never print env, not even for debugging"; "never
# push to main, even small fixes") has its polarity.
CONTINUATION = (
    r"^\s*(?:not\s+)?(?:even|including|especially|except|also|either|nor|ni\s+siquiera|incluso|tampoco|auch\s+nicht"
    r"|sogar|selbst|m[êe]me|y\s+compris|surtout)\b|^\s*(?:甚至|包括|哪怕|即使|就算|连)"
    r"|\b(?:included|inclusive|incluid[oa]s?|inklusive|compris)\s*$"
)

# Words that turn a clause's meaning by themselves: with them its polarity is not read.
TURNING: dict[str, tuple[str, ...]] = {
    "en": ("without", "until", "unless", "except(?:ion|ions|ing)?", "instead", "mov(?:e|ed|ing)\\s+(?:off|away\\s+from)",
           "switch(?:ed|ing)?\\s+(?:away\\s+)?from", "migrat\\w+\\s+(?:off|away\\s+from|from)", "got\\s+rid\\s+of", "replac\\w+"),
    "zh": ("除非", "直到", "以外", "除了", "无需", "不必", "之前不", "换掉", "换成", "替换", "迁移出", "从.{1,12}换到"),
    "es": ("sin", "hasta\\s+que", "excepto", "salvo", "a\\s+menos\\s+que", "excepci[oó]n(?:es)?"),
    "de": ("ohne", "bis", "au[ßs]er", "es\\s+sei\\s+denn", "ausnahme\\w*"),
    "fr": ("sans", "jusqu'[àa]", "sauf", "[àa]\\s+moins\\s+que", "exception\\w*"),
    "ja": ("ずに", "せず", "なしで", "なく(?:て)?", "まで", "以外", "例外"),
}

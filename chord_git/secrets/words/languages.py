"""How people name a password, a token or a key in the languages most people speak (R31).

Data only, read by ``scanners.languages``. Each language lists its labels (the words for a
password, and for a token, key or secret) and the words that bridge a label to its value: a
copula ("lautet", "es", "est", "é", "là", "คือ", "adalah", "ni", "ay"), a particle attached to the
label ("비밀번호는"), or a sentence end after the value ("है", "입니다"). Chinese and Japanese are
``vocab``'s, read by ``prose``; so are English labels and every label holding an English one
("passwort", "mot de passe": ``vocab.ASCII_PASSWORD_WORDS``), which ``prose`` bridges to a value
with ``BORROWED_COPULAS`` too. Labels are written as people write them:
the scanner folds them the way it folds the text it reads (Cyrillic look-alikes, joiners).

Words that are also common words of another language ("to", "on", "er", "e", "je") bridge only
after a label of their own language, so that "the password to db01" is no value. A language may
also list the words that start a qualifier between label and value ("пароль от базы …"), after
which the value must have a typed password's shape.

The languages at the end of the table take their labels from the gettext catalogs of Debian's
packages (``bench/label_languages.labels.json`` names them), which ``bench/label_languages.py``
measures on; ``tests/secrets/test_labels_any_language.py`` holds every word of this table to a
``<word>: <value>`` line.
"""
from __future__ import annotations

from typing import NamedTuple


class Language(NamedTuple):
    code: str
    passwords: tuple[str, ...]  # labels of a typed password
    secrets: tuple[str, ...]  # labels of a token, key or secret (the value must look generated)
    copulas: tuple[str, ...]  # between the label and the value
    attached: bool = False  # copulas may be glued to the label (no word spaces, or particles)
    # Words that start what the password opens, between label and value: "пароль от базы …",
    # "Passwort für den Server …" (the value then needs a typed password's shape).
    qualifiers: tuple[str, ...] = ()


# Copulas of other languages after an English label ("la password è …", "el token es …", "ang
# password ay …", "das Token lautet …"), read by ``prose`` with its English bridges. Only words
# that are no English word, so that "the password on the box is …" keeps its reading.
BORROWED_COPULAS = (
    "lautet", "ist", "es", "est", "etait", "était", "é", "è", "sera", "ay", "adalah", "ialah", "yaitu", "yakni",
    "là", "jest", "brzmi", "wynosi", "este", "är", "luidt", "olarak", "είναι", "это", "є", "це", "ni", "hai", "er",
)

LANGUAGES: tuple[Language, ...] = (
    Language("de", ("passwort", "kennwort", "passworts", "zugangspasswort", "zugangskennwort", "passwörter"),
             ("api-schlüssel", "api-schluessel", "api schlüssel", "zugangsschlüssel", "geheimer schlüssel", "zugangstoken"),
             ("lautet", "lautete", "ist", "war", "heißt", "heisst", "lautet:", "ist:", "wäre", "bleibt"),
             qualifiers=("für", "fuer", "vom", "von", "zum", "zur")),
    Language("es", ("contraseña", "contrasena", "clave de acceso", "contraseñas", "clave"),
             ("clave de api", "clave de la api", "clave api", "clave secreta", "token de acceso", "llave api", "secreto"),
             ("es", "era", "será", "sería", "queda", "es:", "sigue siendo", "quedó", "fue"),
             qualifiers=("de", "del", "para")),
    Language("fr", ("mot de passe", "mot-de-passe", "mdp", "mots de passe"),
             ("clé api", "clé d'api", "clé de l'api", "clé secrète", "jeton", "jeton d'accès", "cle api"),
             ("est", "était", "etait", "sera", "c'est", "reste", "devient", "est:"), qualifiers=("de", "du", "pour")),
    Language("pt", ("senha", "palavra-passe", "palavra passe", "senhas"),
             ("chave de api", "chave da api", "chave api", "chave secreta", "token de acesso", "segredo"),
             ("é", "e'", "era", "será", "fica", "ficou", "foi"), qualifiers=("de", "do", "da", "para")),
    Language("it", ("parola d'ordine", "passwd"),
             ("chiave api", "chiave dell'api", "chiave segreta", "segreto"),
             ("è", "e'", "era", "sarà", "resta")),
    Language("ru", ("пароль", "пароля", "паролем", "пароли"),
             ("токен", "ключ api", "api-ключ", "api ключ", "секретный ключ", "ключ доступа", "секрет", "ключ"),
             ("это", "будет", "был", "такой", "стал", "-", "—"), qualifiers=("от", "для", "к", "ко", "на")),
    Language("uk", ("пароль", "гасло"),
             ("токен", "ключ api", "api-ключ", "секретний ключ", "ключ доступу"),
             ("є", "це", "буде", "був", "такий"), qualifiers=("від", "до", "для", "на")),
    Language("pl", ("hasło", "haslo", "hasła", "hasla", "hasłem"),
             ("klucz api", "klucz", "tajny klucz", "token dostępu"),
             ("to", "jest", "brzmi", "wynosi", "było", "bylo"), qualifiers=("do", "od", "dla")),
    Language("nl", ("wachtwoord", "wachtwoorden"),
             ("api-sleutel", "api sleutel", "geheime sleutel", "toegangstoken"),
             ("is", "luidt", "was", "wordt")),
    Language("tr", ("şifre", "şifresi", "şifrem", "şifremiz", "sifre", "sifresi", "parola", "parolası", "parolasi"),
             ("api anahtarı", "api anahtari", "gizli anahtar", "erişim anahtarı", "anahtar"),
             ("olarak", "şu", "su")),
    Language("az", ("şifrə", "şifrəsi", "parol", "parolu"), ("api açarı", "gizli açar"), ("budur", "belədir")),
    Language("vi", ("mật khẩu", "mat khau", "mật mã"), ("khóa api", "khoá api", "khóa bí mật", "mã thông báo"),
             ("là", "la", "là:")),
    Language("th", ("รหัสผ่าน", "พาสเวิร์ด", "รหัส"), ("โทเค็น", "คีย์ api", "คีย์", "กุญแจ api"),
             ("คือ", "เป็น", "ได้แก่"), attached=True),
    Language("id", ("kata sandi", "kata kunci", "sandi", "kata sandinya", "sandinya", "kata laluan", "katalaluan"),
             ("kunci api", "kunci rahasia", "token akses", "kunci rahsia"),
             ("adalah", "ialah", "yaitu", "yakni", "nya", "iaitu")),
    Language("sw", ("nenosiri", "neno la siri", "nywila", "neno siri"), ("ufunguo wa api", "ufunguo wa siri", "ufunguo"),
             ("ni", "ni:", "yake ni", "yangu ni")),
    Language("tl", ("passcode",), (), ("ay", "ay:", "ko ay", "nito ay", "namin ay")),
    Language("hi", ("पासवर्ड", "पासवर्ड़", "कूटशब्द", "संकेतशब्द", "गुप्त शब्द", "पास वर्ड"),
             ("टोकन", "एपीआई कुंजी", "एपीआई की", "गुप्त कुंजी", "कुंजी"),
             ("है", "हैं", "था", "होगा", "आहे", "हो", "छ"), attached=True),
    Language("bn", ("পাসওয়ার্ড", "পাসওয়ার্ড", "গোপন শব্দ", "পাসওয়ার্ডটি"), ("টোকেন", "এপিআই কী", "গোপন কী"),
             ("হলো", "হল", "হচ্ছে", "হলো:"), attached=True),
    Language("ur", ("پاس ورڈ", "پاسورڈ", "خفیہ لفظ"), ("ٹوکن", "اے پی آئی کی", "خفیہ کلید"), ("ہے", "یہ ہے"), attached=True),
    Language("ar", ("كلمة المرور", "كلمة السر", "رمز المرور", "كلمة مرور", "الرقم السري", "كلمة سر"),
             ("رمز الوصول", "مفتاح api", "المفتاح السري", "مفتاح الواجهة", "توكن"),
             ("هي", "هو", "هى"), attached=True),
    Language("fa", ("رمز عبور", "گذرواژه", "کلمه عبور", "رمز ورود", "پسورد"), ("توکن", "کلید api", "کلید مخفی"),
             ("است", "هست", "را"), attached=True),
    Language("he", ("סיסמה", "סיסמא", "הסיסמה", "הסיסמא"), ("טוקן", "מפתח api", "מפתח סודי"), ("היא", "הוא", "זה"),
             attached=True),
    Language("te", ("పాస్‌వర్డ్", "పాస్వర్డ్", "సంకేతపదం", "రహస్య పదం"), ("టోకెన్",), ("అనేది", "ఇది"), attached=True),
    Language("ta", ("கடவுச்சொல்", "கடவுச் சொல்", "பாஸ்வேர்ட்", "பாஸ்வேர்டு"), ("டோக்கன்",), ("ஆகும்", "என்பது"),
             attached=True),
    Language("mr", ("परवलीचा शब्द",), (), ("आहे",), attached=True),
    Language("gu", ("પાસવર્ડ", "ગુપ્ત શબ્દ"), ("ટોકન",), ("છે",), attached=True),
    Language("kn", ("ಪಾಸ್‌ವರ್ಡ್", "ಪಾಸ್ವರ್ಡ್", "ಗುಪ್ತಪದ"), ("ಟೋಕನ್",), ("ಆಗಿದೆ", "ಇದೆ"), attached=True),
    Language("ml", ("പാസ്‌വേഡ്", "പാസ്വേഡ്", "രഹസ്യവാക്ക്"), ("ടോക്കൺ",), ("ആണ്", "ആകുന്നു"), attached=True),
    Language("pa", ("ਪਾਸਵਰਡ", "ਪਾਸਵਰਡ"), ("ਟੋਕਨ",), ("ਹੈ",), attached=True),
    Language("or", ("ପାସୱାର୍ଡ",), (), ("ଅଟେ",), attached=True),
    Language("si", ("මුරපදය", "මුර පදය"), (), ("වේ",), attached=True),
    Language("ne", ("पासवर्ड",), (), ("हो", "छ"), attached=True),
    Language("am", ("የይለፍ ቃል", "የይለፍ ቃሉ"), (), ("ነው",), attached=True),
    Language("my", ("စကားဝှက်", "လျှို့ဝှက်နံပါတ်"), (), ("သည်", "က"), attached=True),
    Language("km", ("ពាក្យសម្ងាត់",), (), ("គឺ",), attached=True),
    Language("ko", ("비밀번호", "비번", "패스워드", "암호"), ("토큰", "api 키", "비밀 키", "시크릿"),
             ("는", "은", "가", "이", "를", "을", "도", "는요", "입니다", "이에요", "예요"), attached=True),
    Language("el", ("κωδικός πρόσβασης", "κωδικός", "συνθηματικό", "κωδικό"), ("κλειδί api", "μυστικό κλειδί"),
             ("είναι", "ήταν", "θα είναι")),
    Language("cs", ("heslo", "hesla"), ("api klíč", "tajný klíč"), ("je", "zní", "bylo")),
    Language("sk", ("heslo",), ("api kľúč",), ("je", "znie")),
    Language("hu", ("jelszó", "jelszo", "jelszava", "jelszavam"), ("api kulcs", "titkos kulcs"), ("pedig", "lett")),
    Language("ro", ("parola", "parolă", "parolei"), ("cheia api", "cheie api", "cheia secretă"), ("este", "e", "era")),
    Language("sv", ("lösenord", "lösenordet", "losenord", "losenordet"), ("api-nyckel", "api-nyckeln", "hemlig nyckel"),
             ("är", "var", "blir")),
    Language("no", ("passord", "passordet"), ("api-nøkkel", "api-nøkkelen"), ("er", "var", "blir")),
    Language("da", ("adgangskode", "adgangskoden", "kodeord", "kodeordet"), ("api-nøgle", "api-nøglen"), ("er", "var")),
    Language("fi", ("salasana", "salasanan", "salasanani"), ("api-avain", "salainen avain"), ("on", "oli", "olkoon")),
    Language("sr", ("lozinka", "лозинка", "šifra", "шифра", "lozinku"), ("api ključ",), ("je", "glasi", "је", "гласи")),
    Language("ha", ("kalmar sirri", "kalmar wucewa"), (), ("ita ce", "shi ne", "ce", "ne")),
    Language("yo", ("ọrọ igbaniwọle", "oro igbaniwole"), (), ("ni", "jẹ")),
    Language("uz", ("parol", "paroli", "maxfiy so'z"), ("api kaliti",), ("bu", "—")),
    Language("kk", ("құпия сөз", "құпиясөз"), (), ("бұл",)),
    Language("jv", ("tembung sandhi", "sandhi"), (), ("yaiku", "yaitu")),
    Language("ms", ("kata laluan",), ("kunci api",), ("ialah", "adalah", "iaitu")),
    # English labels ``prose`` reads as a description ("phrase", "word" describe) that people
    # also write before a value: "Secret phrase: …".
    Language("en", ("secret phrase", "secret word"), (), ("is", "was")),
    # Labels as the gettext catalogs of Debian's packages translate "Password" and "Passphrase"
    # (``bench/label_languages.labels.json`` names the packages); copulas are the language's "is".
    Language("ca", ("contrasenya",), ("clau",), ("és", "era", "serà")),
    Language("an", ("clau de paso",), ("clau",), ("ye",)),
    Language("gl", ("contrasinal", "frase de paso"), (), ("é", "era", "será")),
    Language("ia", ("contrasigno",), (), ("es",)),
    Language("bg", ("парола",), (), ("е", "беше", "ще бъде")),
    Language("mk", ("лозинка", "тајна фраза"), (), ("е", "беше")),
    Language("be", ("парольная фраза",), (), ("гэта",)),
    Language("lt", ("slaptažodis",), (), ("yra", "buvo")),
    Language("lv", ("parole",), (), ("ir", "bija")),
    Language("et", ("parool",), (), ("on", "oli")),
    Language("sl", ("geslo", "šifrirno geslo"), (), ("je", "bo")),
    Language("ka", ("პაროლი", "კოდური ფრაზა"), (), ("არის", "იყო")),
    Language("hy", ("գաղտնաբառ",), (), ("է", "էր")),
    Language("mn", ("нэвтрэх үг",), (), ("нь", "бол")),
    Language("ky", ("сырсөз",), (), ()),
    Language("eu", ("pasahitza", "pasaesaldia"), (), ("da", "zen")),
    Language("cy", ("cyfrinair",), (), ("yw", "ydy", "oedd")),
    Language("af", ("wagwoord",), (), ("is", "was")),
    Language("eo", ("pasvorto", "pasfrazo"), (), ("estas", "estis")),
    Language("br", ("ger-tremen", "ger tremen", "lavarenn-tremen"), (), ("eo", "zo")),
    Language("is", ("lykilorð", "lykilsetning"), (), ("er", "var")),
    Language("fo", ("loyniorð",), (), ("er", "var")),
    Language("ku", ("تێپەڕەوشە", "تێپپەڕەوشە", "تێپه‌ڕه‌وشه‌", "şîfre"), (), ("e", "ye")),
    Language("ug", ("ئىم", "ئىم جۈملىسى"), (), ()),
    Language("as", ("পাছৱৰ্ড", "পাচফ্ৰেইছ"), (), (), attached=True),
    Language("dz", ("ཆོག་ཡིག", "ཆོག་ཚིག", "ཆོག་ཡིག་", "ཆོག་ཚིག་"), (), (), attached=True),
    Language("zu", ("igama lokungena",), (), ("ngu",)),
    # Passphrases as the same catalogs name them, in languages listed above.
    Language("es", ("frase de paso",), (), ("es", "era")),
    Language("da", ("adgangsfrase",), (), ("er", "var")),
    Language("fi", ("tunnuslause",), (), ("on", "oli")),
    Language("ro", ("frază secretă",), (), ("este", "e", "era")),
    Language("ta", ("கடவுச்சொற்றொடர்",), (), ("ஆகும்", "என்பது"), attached=True),
    Language("fa", ("عبارت عبور",), (), ("است", "هست"), attached=True),
    Language("bn", ("পরিচিত-পংক্তি", "পরিচয়-পংক্তি"), (), ("হলো", "হল"), attached=True),
    Language("tr", ("parola metni",), (), ("olarak", "şu", "su")),
    Language("uz", ("maxfiy soʻz", "махфий сўз"), (), ("bu", "—")),
    Language("tl", ("kontrasenyas", "kontrasenya"), (), ("ay", "ay:")),
)


__all__ = ["BORROWED_COPULAS", "LANGUAGES", "Language"]

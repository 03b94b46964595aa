/**
 * Valid article answers in English, Russian and Turkish for the fake LLM:
 * enough words, "## " sections, the right language, no Turkish -tedir or
 * -tadır, and a title, slug and body of their own for every call number:
 * the sections are sentences drawn for that number from templates and word
 * lists, so two answers share few five-word shingles and pass the
 * near-duplicate check (similarity at most 0.3 among a thousand, the limit is 0.4).
 */
export type Language = 'en' | 'ru' | 'tr';

export function languageOf(systemPrompt: string): Language {
  if (/Language: Russian/.test(systemPrompt)) return 'ru';
  if (/Language: Turkish/.test(systemPrompt)) return 'tr';
  return 'en';
}

const TEXT: Record<Language, { paragraphs: string[]; headings: string[]; words: string[][]; description: string }> = {
  en: {
    paragraphs: [
      'A bankroll is the money you set aside for playing, and nothing else. Keeping it separate from rent and groceries is the first habit of every careful player, because it turns a bad night into a number rather than a crisis.',
      'Variance is the reason good decisions can still lose. Over a few hundred hands the cards decide more than skill does, so judge your play by the quality of each choice and not by the result of a single session.',
      'Set a limit before you sit down and write it where you will see it. When the limit is reached, stop, even if the table feels lucky; the feeling is a trick of memory and the next hand does not know what happened before.',
    ],
    headings: ['Why the basics matter', 'How to put it into practice', 'Common mistakes to avoid', 'Keeping it fun and safe'],
    words: [
      ['Practical', 'Patient', 'Careful', 'Smart', 'Simple', 'Steady', 'Honest', 'Clear', 'Calm', 'Modern'],
      ['Bankroll', 'Position', 'Odds', 'Tells', 'Limits', 'Tournament', 'Staking', 'Variance', 'Bluffing', 'Discipline'],
      ['Habits', 'Lessons', 'Rules', 'Secrets', 'Plans', 'Checklists', 'Principles', 'Notes', 'Methods', 'Ideas'],
    ],
    description: 'A practical guide for careful players, with clear habits, real limits and no promises of easy wins.',
  },
  ru: {
    paragraphs: [
      'Банкролл — это деньги, которые вы заранее отложили на игру, и больше ничего. Держать их отдельно от денег на жильё и продукты — первая привычка внимательного игрока, потому что тогда неудачный вечер становится просто цифрой, а не бедой.',
      'Дисперсия объясняет, почему правильные решения иногда проигрывают. На короткой дистанции карты значат больше, чем умение, поэтому оценивайте свою игру по качеству каждого решения, а не по итогу одной сессии.',
      'Установите лимит до того, как сядете за стол, и запишите его там, где он будет на виду. Когда лимит исчерпан, остановитесь, даже если кажется, что везение рядом: следующая раздача ничего не знает о предыдущих.',
    ],
    headings: ['Почему основы важны', 'Как применять это на практике', 'Частые ошибки', 'Игра без вреда для себя'],
    words: [
      ['Практичные', 'Спокойные', 'Разумные', 'Простые', 'Честные', 'Понятные', 'Надёжные', 'Точные', 'Полезные', 'Новые'],
      ['советы', 'правила', 'привычки', 'уроки', 'заметки', 'идеи', 'методы', 'принципы', 'шаги', 'приёмы'],
      ['банкролла', 'позиции', 'турниров', 'лимитов', 'ставок', 'блефа', 'дисперсии', 'шансов', 'дисциплины', 'анализа'],
    ],
    description: 'Практическое руководство для внимательных игроков: понятные привычки, разумные лимиты и никаких обещаний лёгкой победы.',
  },
  tr: {
    paragraphs: [
      'Kasa, sadece oyun için ayırdığınız paradır ve başka hiçbir işe karışmaz. Bu parayı kira ve market parasından ayrı tutmak dikkatli her oyuncunun ilk alışkanlığı olur, çünkü kötü bir gece böylece bir felakete değil sadece bir sayıya dönüşür.',
      'Şans dalgalanması, doğru kararların neden bazen kaybettiğini açıklar. Kısa sürede kartlar beceriden daha çok söz sahibi olur, bu yüzden oyununuzu tek bir oturumun sonucuna göre değil her kararın kalitesine göre değerlendirin.',
      'Masaya oturmadan önce bir sınır belirleyin ve bunu göreceğiniz bir yere yazın. Sınıra ulaştığınızda durun, masa şanslı görünse bile; bir sonraki el önceki ellerde ne olduğunu bilmez ve bu his sadece hafızanın bir oyunu.',
    ],
    headings: ['Temel bilgiler neden önemli', 'Bunu pratikte nasıl uygularsınız', 'Sık yapılan hatalar', 'Oyunu keyifli ve güvenli tutmak'],
    words: [
      ['Pratik', 'Sakin', 'Akıllı', 'Basit', 'Dürüst', 'Net', 'Güvenli', 'Dikkatli', 'Yararlı', 'Yeni'],
      ['kasa', 'pozisyon', 'turnuva', 'sınır', 'bahis', 'blöf', 'şans', 'oran', 'disiplin', 'analiz'],
      ['önerileri', 'kuralları', 'alışkanlıkları', 'dersleri', 'notları', 'fikirleri', 'yöntemleri', 'ilkeleri', 'adımları', 'taktikleri'],
    ],
    description: 'Dikkatli oyuncular için pratik bir rehber: net alışkanlıklar, makul sınırlar ve kolay kazanç vaadi yok.',
  },
};

/** Sentence templates whose {0}…{3} take a word of the list of that number; lists of 12. */
const SENTENCES: Record<Language, { templates: string[]; lists: string[][] }> = {
  en: {
    templates: [
      'A {0} player {3} the {1} before every {2} and never after it.',
      'Every {2} starts with a {0} look at the {1} you brought along.',
      'The {1} matters more than luck, so a {0} mind {3} it each {2}.',
      'Friends who play for a whole {2} often forget how a {0} {1} works.',
      'When the {2} ends, a {0} regular {3} the {1} one more time.',
      'Nobody wins every {2}, yet a {0} approach to the {1} keeps losses small.',
      'Think of the {1} as a {0} partner that {3} your choices during the {2}.',
      'Before the next {2}, ask whether your {1} still feels {0} and clear.',
    ],
    lists: [
      ['careful', 'patient', 'steady', 'honest', 'calm', 'clever', 'quiet', 'modest', 'alert', 'thoughtful', 'disciplined', 'curious'],
      ['bankroll', 'stake', 'session', 'limit', 'notebook', 'budget', 'table', 'tournament', 'ledger', 'schedule', 'record', 'plan'],
      ['evening', 'weekend', 'month', 'season', 'trip', 'game', 'round', 'hand', 'break', 'holiday', 'league', 'week'],
      ['reviews', 'checks', 'protects', 'writes down', 'counts', 'studies', 'compares', 'questions', 'measures', 'plans', 'tracks', 'limits'],
    ],
  },
  ru: {
    templates: [
      '{0} игрок {3} свой {1} до начала каждого {2} и никогда после него.',
      'После каждого {2} {0} человек спокойно {3} свой {1} и делает выводы.',
      'Хороший {1} важнее удачи, поэтому {0} игрок {3} его после каждого {2}.',
      'Даже {0} новичок быстро понимает, зачем нужен {1} в течение {2}.',
      'Никто не выигрывает после каждого {2}, но {0} игрок {3} свой {1} заранее.',
      'Представьте, что {1} — это {0} помощник, который {3} ваши решения до конца {2}.',
      'Перед началом следующего {2} спросите себя, насколько {0} ваш {1} сегодня.',
      'Опытный друг скажет, что {0} взгляд на {1} помогает после каждого {2}.',
    ],
    lists: [
      ['внимательный', 'спокойный', 'терпеливый', 'честный', 'осторожный', 'разумный', 'опытный', 'скромный', 'собранный', 'вдумчивый', 'строгий', 'бодрый'],
      ['банкролл', 'бюджет', 'лимит', 'план', 'блокнот', 'турнир', 'график', 'отчёт', 'расчёт', 'список', 'запас', 'счёт'],
      ['вечера', 'турнира', 'месяца', 'сезона', 'матча', 'раунда', 'перерыва', 'уикенда', 'праздника', 'выезда', 'круга', 'часа'],
      [
        'проверяет',
        'защищает',
        'записывает',
        'считает',
        'изучает',
        'сравнивает',
        'пересматривает',
        'отмечает',
        'планирует',
        'бережёт',
        'обсуждает',
        'ограничивает',
      ],
    ],
  },
  tr: {
    templates: [
      '{0} bir oyuncu her {2} öncesinde {1} konusunu {3} ve bunu asla sonraya bırakmaz.',
      'Her {2} başında {0} bir göz {1} üzerine düşer ve herkes bunu fark eder.',
      'Şanstan önce {1} gelir, bu yüzden {0} bir zihin her {2} sonunda onu {3}.',
      'Bir {2} boyunca oynayan arkadaşlar {0} bir {1} düzeninin değerini çoğu zaman unutur.',
      '{2} bittiğinde {0} bir oyuncu {1} durumunu bir kez daha {3}.',
      'Kimse her {2} kazanamaz, ama {1} için {0} bir yaklaşım kayıpları küçük tutar.',
      'Bir sonraki {2} öncesinde {1} planınızın hâlâ {0} ve net olup olmadığını sorun.',
      'Deneyimli bir arkadaş, {1} için {0} bir bakışın her {2} sonunda işe yaradığını söyler.',
    ],
    lists: [
      ['dikkatli', 'sabırlı', 'sakin', 'dürüst', 'akıllı', 'temkinli', 'disiplinli', 'meraklı', 'tecrübeli', 'düzenli', 'ölçülü', 'kararlı'],
      ['kasa', 'bütçe', 'sınır', 'plan', 'defter', 'turnuva', 'program', 'kayıt', 'hesap', 'liste', 'birikim', 'masa'],
      ['akşam', 'hafta sonu', 'ay', 'sezon', 'maç', 'tur', 'mola', 'tatil', 'gece', 'oturum', 'lig', 'hafta'],
      ['kontrol eder', 'korur', 'yazar', 'sayar', 'inceler', 'karşılaştırır', 'gözden geçirir', 'not eder', 'planlar', 'sınırlar', 'takip eder', 'hesaplar'],
    ],
  },
};

/** mulberry32: the same numbers for the same call number on every run. */
function numbers(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A paragraph of `count` sentences of its own for call number `n`. */
function paragraph(language: Language, n: number, part: number, count: number): string {
  const { templates, lists } = SENTENCES[language];
  const next = numbers(n * 7919 + part * 104729 + 1);
  const sentences = Array.from({ length: count }, () => {
    const sentence = templates[next() % templates.length]!.replace(/\{(\d)\}/g, (_, k: string) => lists[Number(k)]![next() % lists[Number(k)]!.length]!);
    return sentence.charAt(0).toLocaleUpperCase(language) + sentence.slice(1);
  });
  return sentences.join(' ');
}

export interface ArticleAnswer {
  title: string;
  slug: string;
  description: string;
  subsubcategories: string[];
  body: string;
}

export function articleAnswer(language: Language, n: number): ArticleAnswer {
  const t = TEXT[language];
  const pick = (i: number, d: number) => t.words[i]![Math.floor(n / d) % 10]!;
  const title = `${pick(0, 1)} ${pick(1, 10)} ${pick(2, 100)} ${n}`;
  const sections = t.headings.map((h, i) => `## ${h}\n\n${paragraph(language, n, 2 * i, 5)}\n\n${paragraph(language, n, 2 * i + 1, 5)}`).join('\n\n');
  const body = `${t.paragraphs[0]}\n\n${sections}\n\n- ${t.paragraphs[1]!.split('.')[0]}.\n- ${t.paragraphs[2]!.split('.')[0]}.\n`;
  return {
    title,
    slug: `article-${language}-${n}-${
      pick(1, 10)
        .toLowerCase()
        .replace(/[^a-z]/g, '') || 'x'
    }`,
    description: t.description,
    subsubcategories: ['Basics', 'Limits'],
    body,
  };
}

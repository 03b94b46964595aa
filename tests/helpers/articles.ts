/**
 * Valid article answers in English, Russian and Turkish for the fake LLM:
 * enough words, "## " sections, the right language, no Turkish -tedir or
 * -tadır, and a title and slug of their own for every call number.
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
  const sections = t.headings.map((h) => `## ${h}\n\n${t.paragraphs.join('\n\n')}`).join('\n\n');
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

/**
 * Name pools grouped by culture so a first and last name look like they belong together. The client under
 * test must cope with non-Latin scripts, apostrophes, accents, hyphens, multi-word surnames and many
 * names sharing a prefix (Smith, Smithers, Smithson...), so every one of those is represented.
 */

export interface NameEntry {
  /** As shown to users. */
  readonly text: string
  /** Lower-case ASCII romanisation, used for e-mail addresses. */
  readonly ascii: string
}

export interface Culture {
  readonly name: string
  readonly weight: number
  readonly first: readonly NameEntry[]
  readonly last: readonly NameEntry[]
}

/** `'Zoë:zoe|James'`: names separated by `|`, an optional romanisation after `:`. */
function names(spec: string): NameEntry[] {
  return spec.split('|').map((item) => {
    const [text = '', romanised] = item.split(':')
    const ascii = (romanised ?? text).toLowerCase().replace(/[^a-z]/g, '')
    return { text, ascii: ascii === '' ? 'employee' : ascii }
  })
}

export const CULTURES: readonly Culture[] = [
  {
    name: 'english',
    weight: 26,
    first: names(
      'James|Mary|John|Patricia|Robert|Jennifer|Michael|Linda|William|Elizabeth|David|Barbara|Richard|Susan|' +
        'Joseph|Jessica|Thomas|Sarah|Charles|Karen|Emily|Oliver|Amelia|Harry|Chloe|Zoë:zoe|Anne-Marie|' +
        'Mary Jane|Billy-Ray|Grace|Jack|Isla|Noah|Ava',
    ),
    last: names(
      'Smith|Smith|Smith|Smith|Smithers|Smithson|Smiley|Smythe|Johnson|Williams|Brown|Jones|Miller|Davis|' +
        'Wilson|Taylor|Anderson|Thomas|Jackson|White|Harris|Martin|Thompson|Clarke|Lewis|Walker|Hall|Allen|' +
        'Young|King|Wright|Scott|Green|Baker|Adams|Nelson|Hill|Campbell|Mitchell|Roberts|Carter|Phillips|' +
        'Evans|Turner|Smith-Jones|Bowes-Lyon|St. John:stjohn|Fforde',
    ),
  },
  {
    name: 'irish',
    weight: 5,
    first: names('Siobhán:siobhan|Seán:sean|Aoife|Niamh|Cillian|Ciarán:ciaran|Róisín:roisin|Patrick|Bridget'),
    last: names(
      "O'Brien|O'Connor|O'Sullivan|O'Neill|McCarthy|Murphy|Kelly|Ó Briain:obriain|Mac Giolla Phádraig:macgiollaphadraig",
    ),
  },
  {
    name: 'german',
    weight: 6,
    first: names(
      'Lukas|Lena|Jürgen:juergen|Anneliese|Hans-Peter|Sören:soeren|Maximilian|Käthe:kaethe|Friedrich',
    ),
    last: names(
      'Müller:mueller|Schröder:schroeder|Fischer|Weiß:weiss|Schmidt|Schmitt|Becker|Hoffmann|Wagner|' +
        'Krüger:krueger|von Stauffenberg',
    ),
  },
  {
    name: 'dutch',
    weight: 3,
    first: names('Daan|Sanne|Joost|Femke|Bram|Ilse'),
    last: names('van der Berg|de Vries|van Dijk|Bakker|Jansen|van den Heuvel|de Jong|ter Horst'),
  },
  {
    name: 'spanish',
    weight: 8,
    first: names(
      'José:jose|María:maria|Lucía:lucia|Alejandro|Sofía:sofia|Javier|Ana Belén:anabelen|Iñaki:inaki|' +
        'Begoña:begona|Martín:martin|Valentina|María José:mariajose',
    ),
    last: names(
      'Núñez:nunez|García:garcia|Rodríguez:rodriguez|López:lopez|Martínez:martinez|Pérez:perez|' +
        'Sánchez:sanchez|Ramírez:ramirez|Hernández:hernandez|Gómez:gomez|de la Cruz|García-López:garcialopez',
    ),
  },
  {
    name: 'portuguese',
    weight: 3,
    first: names('João:joao|Gonçalo:goncalo|Inês:ines|Beatriz|Tiago|Conceição:conceicao'),
    last: names('Silva|da Silva|Santos|Gonçalves:goncalves|Ferreira|Araújo:araujo|dos Santos'),
  },
  {
    name: 'french',
    weight: 5,
    first: names(
      'Jean-Luc|Amélie:amelie|Hélène:helene|François:francois|Chloé:chloe|Maëlle:maelle|Benoît:benoit|Loïc:loic',
    ),
    last: names(
      "Dubois|Lefèvre:lefevre|Moreau|Girard|Fontaine|Le Gall|Bélanger:belanger|d'Arcy|de Saint-Just",
    ),
  },
  {
    name: 'italian',
    weight: 4,
    first: names('Giuseppe|Giulia|Francesco|Chiara|Lorenzo|Niccolò:niccolo|Matteo|Alessandra'),
    last: names("D'Angelo|Rossi|Russo|Esposito|Bianchi|Romano|Colombo|Ricci|De Luca|Dell'Acqua"),
  },
  {
    name: 'polish',
    weight: 4,
    first: names('Łukasz:lukasz|Małgorzata:malgorzata|Wojciech|Agnieszka|Paweł:pawel|Zofia|Krzysztof'),
    last: names(
      'Kowalski|Nowak|Wiśniewski:wisniewski|Wójcik:wojcik|Kamińska:kaminska|Lewandowski|' +
        'Zieliński:zielinski|Szymańska:szymanska|Dąbrowski:dabrowski',
    ),
  },
  {
    name: 'nordic',
    weight: 3,
    first: names('Søren:soren|Åsa:asa|Björn:bjorn|Ingrid|Mikael|Sigrún:sigrun'),
    last: names(
      'Ångström:angstrom|Johansson|Andersson|Nielsen|Hansen|Sørensen:sorensen|Lindqvist|Þórsdóttir:thorsdottir',
    ),
  },
  {
    name: 'greek',
    weight: 3,
    first: names('Ζωή:zoi|Γιώργος:giorgos|Ελένη:eleni|Δημήτρης:dimitris|Νίκος:nikos|Μαρία:maria'),
    last: names(
      'Παπαδοπούλου:papadopoulou|Οικονόμου:oikonomou|Γεωργίου:georgiou|Παπαδόπουλος:papadopoulos|Αλεξίου:alexiou',
    ),
  },
  {
    name: 'russian',
    weight: 4,
    first: names(
      'Алексей:aleksei|Наталья:natalya|Дмитрий:dmitry|Ольга:olga|Сергей:sergei|Анастасия:anastasia',
    ),
    last: names(
      'Иванов:ivanov|Смирнова:smirnova|Кузнецов:kuznetsov|Попова:popova|Соколов:sokolov|Петрова:petrova',
    ),
  },
  {
    name: 'arabic',
    weight: 4,
    first: names('محمد:mohammed|فاطمة:fatima|أحمد:ahmed|علي:ali|مريم:maryam|يوسف:youssef|Layla|Omar'),
    last: names('العلي:alali|حداد:haddad|الخطيب:alkhatib|منصور:mansour|Al-Farsi:alfarsi|El-Amin:elamin'),
  },
  {
    name: 'chinese',
    weight: 6,
    first: names('伟:wei|芳:fang|秀英:xiuying|敏:min|静:jing|Wei|Xiaoling|Jun'),
    last: names('李:li|王:wang|张:zhang|刘:liu|陈:chen|杨:yang|黄:huang|Zhang|Li'),
  },
  {
    name: 'japanese',
    weight: 3,
    first: names('花子:hanako|太郎:taro|結衣:yui|翔太:shota|さくら:sakura|Haruto'),
    last: names('田中:tanaka|佐藤:sato|鈴木:suzuki|高橋:takahashi|渡辺:watanabe|伊藤:ito|Yamamoto'),
  },
  {
    name: 'korean',
    weight: 2,
    first: names('민준:minjun|서연:seoyeon|지훈:jihoon|Ji-woo:jiwoo'),
    last: names('김:kim|이:lee|박:park|최:choi|Kim'),
  },
  {
    name: 'indian',
    weight: 4,
    first: names('Priya|Arjun|Ananya|Rohan|Lakshmi|Vikram|Aditi|प्रिया:priya'),
    last: names('Sharma|Patel|Iyer|Reddy|Nair|Venkataraman|Gupta|Singh|शर्मा:sharma'),
  },
  {
    name: 'vietnamese',
    weight: 2,
    first: names('Thảo:thao|Minh|Huyền:huyen|Đức:duc'),
    last: names('Nguyễn:nguyen|Trần:tran|Lê:le|Phạm:pham'),
  },
  {
    name: 'turkish',
    weight: 2,
    first: names('Çağrı:cagri|Ayşe:ayse|Mehmet|Şebnem:sebnem|İlker:ilker'),
    last: names('Yılmaz:yilmaz|Öztürk:ozturk|Kaya|Şahin:sahin|Demir'),
  },
  {
    name: 'african',
    weight: 3,
    first: names('Chinedu|Ngozi|Kwame|Amara|Thabo|Nomvula'),
    last: names('Okafor|Adeyemi|Mensah|Nkosi|Dlamini|Okonkwo|Abubakar'),
  },
]

// The built-in examples: data as a person would paste it, and the arguments
// for each check that makes sense on it. Pure data (and one generator), so
// the tests can compute what each example must show by calling the package
// in Node.

const README_ROWS = `[
  {"invoice": "INV-1001", "amount": "100.50", "date": "2026-04-01"},
  {"invoice": "",         "amount": "20",     "date": "2026-04-02"},
  {"invoice": "INV-1003", "amount": "-5",     "date": "2026-04-03"},
  {"invoice": "INV-1004", "amount": "abc",    "date": "04/05/2026"}
]`;

// The refund on the 18th went out to the customer but was entered as money
// in: the books say 1,237.75 where the bank says 997.75.
const CASH_BOOK = `date,label,amount,direction
2026-03-03,Invoice INV-1001 paid,250.00,in
2026-03-05,Office rent,600.00,out
2026-03-12,Invoice INV-1002 paid,480.25,in
2026-03-18,Refund to customer C-1017,120.00,in
2026-03-31,Bank fees,12.50,out
`;

// Ann registered twice (C-1047), was keyed in again with a stray space and
// lower case (c-1001), Chidi's second record has a typo in the email, Jon
// and John Smith share one, and Eve has no id at all.
const CUSTOMERS = `customer_id,name,email,city
C-1001,Ann Lee,ann.lee@example.com,Leeds
C-1002,Bob Okafor,bob.okafor@example.com,York
C-1003,Chidi Obi,chidi.obi@example.com,Hull
c-1001 ,Ann Lee,ann.lee@example.com,Leeds
C-1004,Dana Kim,dana.kim@example.com,York
C-1047,Ann Lee,ann.lee@example.com,Leeds
,Eve Martin,eve.martin@example.com,Leeds
C-1050,Chidi Obi,chidi.obi@exmaple.com,Hull
C-1051,Jon Smith,jon.smith@example.com,Bath
C-1052,John Smith,jon.smith@example.com,Bath
C-1053,Robert Okafor,bob.okafor@example.com,York
`;

/**
 * Invoices as CSV with faults at fixed intervals, so every run (and the
 * test) sees the same table: a blank invoice every 211th row, an amount
 * that is not a number every 97th, a negative one every 89th, an impossible
 * date every 131st and a mistyped currency every 53rd.
 */
function generateInvoices(count) {
  const lines = ['invoice,customer,amount,currency,date'];
  for (let i = 0; i < count; i += 1) {
    const invoice = i % 211 === 7 ? '' : `INV-${String(10000 + i)}`;
    const customer = `C-${1000 + ((i * 37) % 400)}`;
    let amount = (((i * 7919) % 100000) / 100).toFixed(2);
    if (i % 97 === 5) amount = 'n/a';
    else if (i % 89 === 3) amount = `-${amount}`;
    const currency = i % 53 === 11 ? 'GPB' : ['EUR', 'GBP', 'USD'][i % 3];
    const date = i % 131 === 17 ? '2026-02-30' : `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`;
    lines.push(`${invoice},${customer},${amount},${currency},${date}`);
  }
  return `${lines.join('\n')}\n`;
}

export const EXAMPLES = [
  {
    id: 'worked-example',
    title: 'Broken invoices',
    description: 'The README’s worked example: four rows, three of them unusable, each for a stated reason.',
    tool: 'validate_rows',
    data: README_ROWS,
    args: {
      validate_rows: {
        columns: [
          { name: 'invoice', type: 'string', required: true, pattern: 'INV-\\d+' },
          { name: 'amount', type: 'number', min: 0 },
          { name: 'date', type: 'date', required: true },
        ],
        row_key: 'invoice',
      },
    },
  },
  {
    id: 'cash-book',
    title: 'A month that does not close',
    description: 'A cash book off by one movement’s direction: a refund entered as money in.',
    tool: 'reconcile',
    data: CASH_BOOK,
    args: {
      reconcile: { opening_balance: 1000, closing_balance: 997.75, tolerance: 0.01 },
    },
  },
  {
    id: 'customers',
    title: 'Customers registered twice',
    description: 'Re-registrations, a re-keyed id, near-matches and a row with no id, for a person to decide.',
    tool: 'duplicate_report',
    data: CUSTOMERS,
    args: {
      duplicate_report: { key: 'customer_id', match_fields: ['name', 'email'], similarity_threshold: 0.9 },
      count_distinct: { key: 'customer_id' },
      validate_rows: {
        columns: [
          { name: 'customer_id', required: true, pattern: 'C-\\d{4}' },
          { name: 'name', required: true },
          { name: 'email', required: true, pattern: '[^@\\s]+@[^@\\s]+\\.[a-z]+' },
          { name: 'city', not_blank: true },
        ],
        row_key: 'customer_id',
      },
    },
  },
  {
    id: 'invoices-5000',
    title: '5,000 invoices',
    description: 'A generated table, to see a re-run on every edit; mistyped currencies are flagged, not held back.',
    tool: 'validate_rows',
    get data() {
      return generateInvoices(5000);
    },
    args: {
      validate_rows: {
        columns: [
          { name: 'invoice', type: 'string', required: true, pattern: 'INV-\\d{5}' },
          { name: 'customer', required: true },
          { name: 'amount', type: 'number', min: 0 },
          { name: 'currency', allowed: ['EUR', 'GBP', 'USD'], on_fail: 'flag' },
          { name: 'date', type: 'date', required: true },
        ],
        row_key: 'invoice',
      },
      count_distinct: { key: 'customer' },
      duplicate_report: { key: 'invoice' },
    },
  },
  {
    id: 'draft-contract',
    title: 'Draft a contract',
    description: 'The customers, profiled: types, blanks, a stray space, and a contract they already pass.',
    tool: 'inspect_dataset',
    data: CUSTOMERS,
    args: {
      inspect_dataset: {},
    },
  },
];

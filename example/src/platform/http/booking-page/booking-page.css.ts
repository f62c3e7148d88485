/** The booking page's stylesheet: one column, readable at phone width. */
export const bookingPageCss =
  `body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1b1b1b; }
main { max-width: 36rem; margin: 0 auto; padding: 1rem; }
form { display: grid; gap: 0.75rem; }
label { display: grid; gap: 0.25rem; font-weight: 600; }
input, textarea, button { font: inherit; padding: 0.5rem; }
button { cursor: pointer; }
#slots { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
#slots button { min-width: 6rem; }
#status:empty { display: none; }
`;
